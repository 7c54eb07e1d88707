import { crc32c, maskCrc, type Crc32cFunction } from './crc32c.js';

/** Bytes before a record's data: uint64 length + uint32 masked CRC of the length. */
export const HEADER_BYTES = 12;

/** Bytes of framing per record: the 12-byte header plus the 4-byte masked data CRC. */
export const FRAME_OVERHEAD = 16;

/** The largest length a frame may carry here: lengths are JS numbers, exact up to 2^53 - 1. */
const MAX_SAFE_LENGTH = Number.MAX_SAFE_INTEGER;

/** Writes a frame's little-endian uint64 `length` at `offset`, byte by byte (no view needed). */
export function writeFrameLength(target: Uint8Array, offset: number, length: number): void {
  target[offset] = length & 0xff;
  target[offset + 1] = (length >>> 8) & 0xff;
  target[offset + 2] = (length >>> 16) & 0xff;
  target[offset + 3] = length >>> 24;
  const high = Math.floor(length / 0x1_0000_0000);
  target[offset + 4] = high & 0xff;
  target[offset + 5] = (high >>> 8) & 0xff;
  target[offset + 6] = (high >>> 16) & 0xff;
  target[offset + 7] = high >>> 24;
}

/**
 * Writes the 12-byte header for a record of `length` bytes at `offset`: the little-endian uint64
 * length and the masked CRC-32C of those 8 bytes.
 */
export function writeRecordHeader(
  target: Uint8Array,
  offset: number,
  length: number,
  crc: Crc32cFunction = crc32c,
): void {
  const view = new DataView(target.buffer, target.byteOffset + offset, HEADER_BYTES);
  view.setUint32(0, length >>> 0, true);
  view.setUint32(4, Math.floor(length / 0x1_0000_0000), true);
  view.setUint32(8, maskCrc(crc(target.subarray(offset, offset + 8))), true);
}

/**
 * Frames the `length` data bytes that already sit at `offset + 12` in `target`: writes the header
 * before them and the masked data CRC after them. Encoders write a payload straight into the buffer
 * and frame it in place, without a copy.
 *
 * @returns the offset just past the frame (`offset + length + 16`).
 */
export function frameInPlace(
  target: Uint8Array,
  offset: number,
  length: number,
  crc: Crc32cFunction = crc32c,
): number {
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_SAFE_LENGTH) {
    throw new RangeError(`record length must be a non-negative safe integer, got ${length}`);
  }
  writeRecordHeader(target, offset, length, crc);
  const dataStart = offset + HEADER_BYTES;
  const dataEnd = dataStart + length;
  const masked = maskCrc(crc(target.subarray(dataStart, dataEnd)));
  new DataView(target.buffer, target.byteOffset + dataEnd, 4).setUint32(0, masked, true);
  return dataEnd + 4;
}

/**
 * Writes the frame of `data` into `target` at `offset` (which needs `data.length + 16` bytes of room).
 *
 * @returns the offset just past the frame.
 */
export function frameRecordInto(
  data: Uint8Array,
  target: Uint8Array,
  offset: number,
  crc: Crc32cFunction = crc32c,
): number {
  if (offset < 0 || offset + data.length + FRAME_OVERHEAD > target.length) {
    throw new RangeError(
      `target has no room for a ${data.length + FRAME_OVERHEAD}-byte frame at offset ${offset}`,
    );
  }
  target.set(data, offset + HEADER_BYTES);
  return frameInPlace(target, offset, data.length, crc);
}

/**
 * The TFRecord frame of one record: `uint64 length, uint32 masked_crc32c(length), data,
 * uint32 masked_crc32c(data)`, little-endian. The frame of `"hello"` is
 * `05000000 00000000 eab2043e 68656c6c6f bb1f1c19`.
 */
export function frameRecord(data: Uint8Array, crc: Crc32cFunction = crc32c): Uint8Array {
  const frame = new Uint8Array(data.length + FRAME_OVERHEAD);
  frameRecordInto(data, frame, 0, crc);
  return frame;
}
