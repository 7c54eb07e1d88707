import * as zlib from 'node:zlib';
import type { InputCursor } from './input-cursor.js';

/** gzip's header flags (RFC 1952, 2.3.1). */
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const RESERVED = 0xe0;

/** True when the next bytes start a gzip member (`1f 8b`, deflate). */
export async function atGzipMember(input: InputCursor): Promise<boolean> {
  if (!(await input.fill(3))) return false;
  const head = input.peek(3);
  return head[0] === 0x1f && head[1] === 0x8b && head[2] === 8;
}

/**
 * Consumes one gzip member header (RFC 1952): the 10 fixed bytes and the optional extra field, name,
 * comment and header CRC, which is checked as zlib (and so TensorFlow) checks it. Resolves to why it
 * is not a header, or `undefined` when it was read.
 */
export async function readGzipHeader(input: InputCursor): Promise<string | undefined> {
  let crc = 0;
  input.observer = (bytes) => (crc = crc32(bytes, crc));
  try {
    return await readGzipHeaderFields(input, () => crc);
  } finally {
    input.observer = undefined;
  }
}

async function readGzipHeaderFields(input: InputCursor, crc: () => number): Promise<string | undefined> {
  if (!(await input.fill(10))) return 'the gzip header is cut short';
  const head = input.peek(10);
  if (head[0] !== 0x1f || head[1] !== 0x8b) return 'not a gzip member (no 1f 8b magic)';
  if (head[2] !== 8) return `unknown gzip compression method ${head[2]}`;
  const flags = head[3]!;
  if ((flags & RESERVED) !== 0) return 'reserved gzip header flags set';
  input.consume(10);
  if ((flags & FEXTRA) !== 0) {
    if (!(await input.fill(2))) return 'the gzip header is cut short';
    const lengthBytes = input.peek(2);
    const length = lengthBytes[0]! | (lengthBytes[1]! << 8);
    input.consume(2);
    if (!(await input.fill(length))) return 'the gzip header is cut short';
    input.consume(length);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if ((flags & flag) !== 0 && !(await input.skipThrough(0))) return 'the gzip header is cut short';
  }
  if ((flags & FHCRC) !== 0) {
    const expected = crc() & 0xffff;
    if (!(await input.fill(2))) return 'the gzip header is cut short';
    const stored = input.peek(2);
    input.consume(2);
    if ((stored[0]! | (stored[1]! << 8)) !== expected) return 'header CRC mismatch in the gzip header';
  }
  return undefined;
}

/** Consumes a zlib header (RFC 1950). Resolves to why it is not one, or `undefined`. */
export async function readZlibHeader(input: InputCursor): Promise<string | undefined> {
  if (!(await input.fill(2))) return 'the zlib header is cut short';
  const [method, flags] = input.peek(2) as unknown as [number, number];
  if ((method & 0x0f) !== 8 || method >> 4 > 7 || (method * 256 + flags) % 31 !== 0)
    return 'incorrect zlib header';
  if ((flags & 0x20) !== 0) return 'the zlib stream needs a preset dictionary';
  input.consume(2);
  return undefined;
}

/** The running check of a member's decompressed bytes: gzip's CRC-32 or zlib's Adler-32. */
export interface DataCheck {
  update(bytes: Uint8Array): void;
  /** Compares with the trailer at the cursor, consuming it; resolves to why it failed, or `undefined`. */
  verify(input: InputCursor): Promise<string | undefined>;
}

/** gzip's trailer: CRC-32 and the length mod 2^32, little-endian. */
export function gzipCheck(): DataCheck {
  let crc = 0;
  let length = 0;
  return {
    update(bytes) {
      crc = crc32(bytes, crc);
      length = (length + bytes.length) >>> 0;
    },
    async verify(input) {
      if (!(await input.fill(8))) return 'the gzip trailer is cut short';
      const view = new DataView(input.peek(8).slice().buffer);
      input.consume(8);
      if (view.getUint32(0, true) !== crc) return 'CRC-32 mismatch in the gzip trailer';
      if (view.getUint32(4, true) !== length) return 'length mismatch in the gzip trailer';
      return undefined;
    },
  };
}

/** zlib's trailer: Adler-32, big-endian. */
export function zlibCheck(): DataCheck {
  let low = 1;
  let high = 0;
  return {
    update(bytes) {
      // 5552 bytes is the most that can be summed before the 32-bit sums must be reduced (RFC 1950).
      for (let start = 0; start < bytes.length; start += 5552) {
        const end = Math.min(bytes.length, start + 5552);
        for (let index = start; index < end; index++) {
          low += bytes[index]!;
          high += low;
        }
        low %= 65521;
        high %= 65521;
      }
    },
    async verify(input) {
      if (!(await input.fill(4))) return 'the zlib trailer is cut short';
      const view = new DataView(input.peek(4).slice().buffer);
      input.consume(4);
      return view.getUint32(0, false) === ((high << 16) | low) >>> 0
        ? undefined
        : 'Adler-32 mismatch in the zlib trailer';
    },
  };
}

let table: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, gzip's): `zlib.crc32` where Node has it (20.15+), else a table. */
function crc32(bytes: Uint8Array, previous: number): number {
  const native = (zlib as { crc32?: (data: Uint8Array, value: number) => number }).crc32;
  if (native !== undefined) return native(bytes, previous);
  table ??= Uint32Array.from({ length: 256 }, (_, index) => {
    let value = index;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    return value >>> 0;
  });
  let crc = ~previous;
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}
