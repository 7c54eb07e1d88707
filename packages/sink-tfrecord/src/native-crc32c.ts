import { loadNativeCrc32c, type NativeCrc32c } from '@tfpipe/node-utils';
import { crc32c as jsCrc32c, crc32cCombine, crc32cRange } from './crc32c.js';

/**
 * From this many bytes up, {@link fastCrc32c} calls the native `@node-rs/crc32`: its fixed cost per
 * call outweighs the JS CRC's per-byte cost from about 500 bytes (bench/README.md).
 */
export const NATIVE_CRC_THRESHOLD = 512;

let native: NativeCrc32c | null | undefined;

/** The native CRC-32C, or `null` when `@node-rs/crc32` or its prebuilt binary is missing. */
function loadNative(): NativeCrc32c | null {
  if (native === undefined) native = loadNativeCrc32c();
  return native;
}

/** True when the native CRC-32C loaded (else every call takes the JS path). */
export function nativeCrc32cAvailable(): boolean {
  return loadNative() !== null;
}

/**
 * CRC-32C with the faster implementation for the size: JS below {@link NATIVE_CRC_THRESHOLD} bytes,
 * the native `@node-rs/crc32` from there up (JS when it is absent). Same results as `crc32c`.
 *
 * @param previous - the CRC of the bytes before `data`, to continue a running CRC.
 * @default previous 0
 */
export function fastCrc32c(data: Uint8Array, previous = 0): number {
  if (data.length >= NATIVE_CRC_THRESHOLD) {
    const nativeCrc = native === undefined ? loadNative() : native;
    if (nativeCrc !== null) return nativeCrc(data, previous);
  }
  return jsCrc32c(data, previous);
}

/**
 * {@link fastCrc32c} of the bytes from `start` to `end` of `buffer` (`view` is a DataView over the
 * same bytes): no view is made unless the native path needs one.
 *
 * @param previous - the CRC of the bytes before them, to continue a running CRC.
 * @default previous 0
 */
export function fastCrc32cRange(
  buffer: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  previous = 0,
): number {
  if (end - start >= NATIVE_CRC_THRESHOLD) {
    const nativeCrc = native === undefined ? loadNative() : native;
    if (nativeCrc !== null) return nativeCrc(buffer.subarray(start, end), previous);
  }
  return crc32cRange(view, start, end, previous);
}

/**
 * {@link fastCrc32cRange} of `start` to `end`, reading only the bytes outside `spans`: the
 * `offset, length, crc` triples of values with a known CRC that encoding the record found (core's
 * `encodeInto` fills them), each of which enters with its known CRC ({@link crc32cCombine}). Spans
 * that do not lie in order inside the range are not trusted: everything is read then. Empties the spans.
 */
export function crc32cKnowing(
  buffer: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  spans: number[],
): number {
  let at = start;
  for (let index = 0; index < spans.length; index += 3) {
    const spanStart = spans[index]!;
    const spanEnd = spanStart + spans[index + 1]!;
    if (spanStart < at || spanEnd > end) {
      at = -1;
      break;
    }
    at = spanEnd;
  }
  if (at === -1) {
    spans.length = 0;
    return fastCrc32cRange(buffer, view, start, end);
  }
  let crc = 0;
  at = start;
  for (let index = 0; index < spans.length; index += 3) {
    const spanStart = spans[index]!;
    const length = spans[index + 1]!;
    crc = crc32cCombine(fastCrc32cRange(buffer, view, at, spanStart, crc), spans[index + 2]!, length);
    at = spanStart + length;
  }
  spans.length = 0;
  return fastCrc32cRange(buffer, view, at, end, crc);
}
