const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let index = 0; index < 64; index++) DECODE[ALPHABET.charCodeAt(index)] = index;
// The URL-safe alphabet decodes too, as protobuf's JSON parsers accept both.
DECODE['-'.charCodeAt(0)] = 62;
DECODE['_'.charCodeAt(0)] = 63;

/** Standard base64 (RFC 4648 section 4) with padding, as protobuf's JSON printer writes `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const triple =
      ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number);
    text +=
      ALPHABET[triple >>> 18]! +
      ALPHABET[(triple >>> 12) & 63]! +
      ALPHABET[(triple >>> 6) & 63]! +
      ALPHABET[triple & 63]!;
  }
  const rest = bytes.length - index;
  if (rest === 1) {
    const first = bytes[index] as number;
    text += ALPHABET[first >>> 2]! + ALPHABET[(first & 3) << 4]! + '==';
  } else if (rest === 2) {
    const pair = ((bytes[index] as number) << 8) | (bytes[index + 1] as number);
    text += ALPHABET[pair >>> 10]! + ALPHABET[(pair >>> 4) & 63]! + ALPHABET[(pair & 15) << 2]! + '=';
  }
  return text;
}

/**
 * Decodes standard or URL-safe base64, padded or not. Returns `undefined` for anything else
 * (a foreign character, a bad length, padding in the middle, non-zero trailing bits).
 */
export function fromBase64(text: string): Uint8Array | undefined {
  let length = text.length;
  if (length % 4 === 0 && length > 0 && text.charCodeAt(length - 1) === 61) {
    length--;
    if (text.charCodeAt(length - 1) === 61) length--;
  }
  if (length % 4 === 1) return undefined;
  const output = new Uint8Array(Math.floor((length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let position = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    const value = code < 128 ? (DECODE[code] as number) : -1;
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      output[position++] = (buffer >>> bits) & 0xff;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return output;
}
