import { crc32c, unmaskCrc } from './crc32c.js';
import { HEADER_BYTES } from './frame-record.js';
import type { TfrecordCompression } from './tf-record.js';

/**
 * The compression of a TFRecord file from its first bytes: gzip starts `1f 8b`; a zlib (RFC 1950)
 * stream starts with a CMF byte of method 8 and a FLG byte such that `(CMF * 256 + FLG) % 31 == 0`
 * (`78 9c`, `78 da`, …); anything else is a raw frame. A raw file whose first record length happens to
 * look like one of those headers is told apart by its first header's length CRC.
 *
 * @param head - the first bytes of the file (12 or more decide every case).
 * @param complete - `head` is the whole file: decide with what there is.
 * @default complete false
 * @returns the compression, or `undefined` when more bytes are needed to decide.
 */
export function detectCompression(head: Uint8Array, complete = false): TfrecordCompression | undefined {
  if (head.length === 0) return complete ? 'none' : undefined;
  const first = head[0]!;
  const magic = looksGzip(first, head[1]) ? 'gzip' : looksZlib(first, head[1]) ? 'zlib' : undefined;
  if (head.length < 2 && !complete && (first === 0x1f || (first & 0x0f) === 8)) return undefined;
  if (magic === undefined) return 'none';
  if (head.length < HEADER_BYTES) return complete ? magic : undefined;
  return rawHeaderValid(head) ? 'none' : magic;
}

function looksGzip(first: number, second: number | undefined): boolean {
  return first === 0x1f && second === 0x8b;
}

function looksZlib(first: number, second: number | undefined): boolean {
  return second !== undefined && (first & 0x0f) === 8 && first >> 4 <= 7 && (first * 256 + second) % 31 === 0;
}

function rawHeaderValid(head: Uint8Array): boolean {
  const view = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
  return unmaskCrc(view.getUint32(8, true)) === crc32c(head.subarray(0, 8));
}
