/** A directory entry's name as text, and whether its bytes were valid UTF-8. */
export interface DecodedFileName {
  /** The name, with U+FFFD where a byte was not UTF-8 (such text does not name the file). */
  readonly text: string;
  /** False when the bytes are not UTF-8: the text cannot be used to open the file. */
  readonly valid: boolean;
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');

/**
 * Decodes a file name read as bytes (Linux names are bytes, not text). A string path made from a name
 * that is not UTF-8 names a different, missing file, so callers must refuse it instead of skipping it.
 */
export function decodeFileName(bytes: Uint8Array): DecodedFileName {
  try {
    return { text: strict.decode(bytes), valid: true };
  } catch {
    return { text: lossy.decode(bytes), valid: false };
  }
}

/** Bytes a UTF-8 sequence starting with `lead` takes (0: not a lead byte), and its 2nd byte's range. */
function sequenceOf(lead: number): readonly [length: number, low: number, high: number] {
  if (lead < 0x80) return [1, 0, 0];
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return [0, 0, 0];
}

function validLength(bytes: Uint8Array, start: number): number {
  const [length, low, high] = sequenceOf(bytes[start]!);
  if (length <= 1) return length;
  if (start + length > bytes.length) return 0;
  const second = bytes[start + 1]!;
  if (second < low || second > high) return 0;
  for (let index = start + 2; index < start + length; index++) {
    if (bytes[index]! < 0x80 || bytes[index]! > 0xbf) return 0;
  }
  return length;
}

const hex = (byte: number): string => `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * A file name for a one-line message: valid UTF-8 as text, every other byte, control characters and
 * the backslash escaped (`d\xFF.csv`), so the user can tell the bytes apart and the terminal stays sane.
 */
export function escapeFileName(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length;) {
    const length = validLength(bytes, index);
    const byte = bytes[index]!;
    if (length === 0) {
      text += hex(byte);
      index += 1;
    } else if (length === 1) {
      text += byte === 0x5c ? '\\\\' : byte < 0x20 || byte === 0x7f ? hex(byte) : String.fromCharCode(byte);
      index += 1;
    } else {
      text += strict.decode(bytes.subarray(index, index + length));
      index += length;
    }
  }
  return text;
}
