/**
 * Streaming UTF-8 decoding that fails on invalid bytes (never a U+FFFD in the data) and says where:
 * the byte offset of the first bad byte, and how many newlines precede it in the chunk being
 * decoded (the caller knows the lines before: its parser counts them, so this does not count every
 * chunk's newlines again). A character split across two chunks decodes whole. A leading BOM is removed.
 */

import { utf16Evidence } from '@tfpipe/core/plugin';

/** Where the first invalid UTF-8 byte is. */
export class InvalidUtf8Error extends Error {
  constructor(
    /** Byte offset of the first invalid byte (from the start of the input, BOM included). */
    readonly byteOffset: number,
    /**
     * Newlines between the start of the chunk being decoded (with the unfinished character carried
     * over from the one before) and that byte; 0 at the end of the input.
     */
    readonly newlinesInChunk: number,
  ) {
    super(`invalid UTF-8 at byte ${byteOffset}`);
  }
}

/** The input starts like UTF-16, not UTF-8 (a BOM, or ASCII with a NUL after or before each character). */
export class Utf16InputError extends InvalidUtf8Error {
  constructor(readonly encoding: 'UTF-16LE' | 'UTF-16BE') {
    super(0, 0);
  }
}

/** Bytes of the input's start looked at for UTF-16 evidence. */
const HEAD_BYTES = 64;

/** Decodes chunk after chunk; see the file comment. */
export class Utf8ChunkDecoder {
  readonly #decoder: TextDecoder;
  /** Bytes of the previous chunk that may start a character completed by the next chunk. */
  #tail: Uint8Array = new Uint8Array(0);
  /** Bytes decoded so far (from the start of the file). */
  #offset: number;
  /** The input's first bytes while they are too few to rule UTF-16 out; undefined once ruled out. */
  #head: Uint8Array | undefined;

  /**
   * @param startOffset - where in the file the input starts: past 0, a leading U+FEFF is text, not a
   *   BOM to remove, and error offsets count from the file's start
   */
  constructor(startOffset = 0) {
    this.#offset = startOffset;
    this.#head = startOffset === 0 ? new Uint8Array(0) : undefined;
    this.#decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: startOffset > 0 });
  }

  /** The bytes of an unfinished character held back for the next chunk (a copy's worth: do not write). */
  get pendingBytes(): Uint8Array {
    return this.#tail;
  }

  /** Decodes one chunk. @throws InvalidUtf8Error, Utf16InputError */
  decode(chunk: Uint8Array): string {
    if (this.#head !== undefined) this.#checkHead(chunk);
    let text: string;
    try {
      text = this.#decoder.decode(chunk, { stream: true });
    } catch {
      throw this.#locate(chunk);
    }
    this.#account(chunk);
    return text;
  }

  /** Flushes; a character cut off by the end of the input is an error. @throws InvalidUtf8Error */
  end(): string {
    try {
      return this.#decoder.decode();
    } catch {
      throw new InvalidUtf8Error(this.#offset - this.#tail.length, 0);
    }
  }

  /** UTF-16 ASCII is valid UTF-8 (NULs): caught here, before it parses as one odd column. */
  #checkHead(chunk: Uint8Array): void {
    const head = concat(this.#head!, chunk.subarray(0, HEAD_BYTES));
    const encoding = head.length >= 2 ? utf16Evidence(head) : undefined;
    if (encoding !== undefined) throw new Utf16InputError(encoding);
    this.#head = head.length >= HEAD_BYTES ? undefined : head;
  }

  #account(chunk: Uint8Array): void {
    this.#offset += chunk.length;
    this.#tail = incompleteTail(chunk, this.#tail);
  }

  /** Finds the first invalid byte in tail + chunk by validating by hand (only on the error path). */
  #locate(chunk: Uint8Array): InvalidUtf8Error {
    const tail = this.#tail;
    const bytes = new Uint8Array(tail.length + chunk.length);
    bytes.set(tail, 0);
    bytes.set(chunk, tail.length);
    const bad = firstInvalid(bytes);
    let newlines = 0;
    for (let index = tail.length; index < bad; index++) if (bytes[index] === 0x0a) newlines++;
    return new InvalidUtf8Error(this.#offset - tail.length + bad, newlines);
  }
}

/** The bytes at the end of `chunk` (with the previous tail) that form an unfinished character. */
function incompleteTail(chunk: Uint8Array, previous: Uint8Array): Uint8Array {
  const joined = chunk.length >= 4 ? chunk : concat(previous, chunk);
  const end = joined.length;
  for (let back = 1; back <= Math.min(4, end); back++) {
    const byte = joined[end - back]!;
    if ((byte & 0xc0) !== 0x80) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return need > back ? joined.slice(end - back) : new Uint8Array(0);
    }
  }
  return new Uint8Array(0);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Index of the first byte that does not belong to a well-formed UTF-8 sequence (bytes.length if none). */
export function firstInvalid(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte < 0x80) {
      index++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (byte >= 0xe0 && byte <= 0xef) {
      need = 2;
      min = byte === 0xe0 ? 0xa0 : 0x80;
      if (byte === 0xed) max = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      need = 3;
      min = byte === 0xf0 ? 0x90 : 0x80;
      if (byte === 0xf4) max = 0x8f;
    } else return index;
    for (let k = 1; k <= need; k++) {
      const next = bytes[index + k];
      if (next === undefined) return index;
      if (k === 1 ? next < min || next > max : (next & 0xc0) !== 0x80) return index;
    }
    index += need + 1;
  }
  return bytes.length;
}
