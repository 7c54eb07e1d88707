import { findJpegFrame } from './read-image-header.js';
import type { ImageFormat } from './sniff-image-format.js';

/** Deflate's best ratio: a 258-byte match in 2 bits (1 for the length code, 1 for the distance code). */
const DEFLATE_MAX_RATIO = 1032;

/** Samples per pixel of each PNG colour type: grey, RGB, palette index, grey + alpha, RGBA. */
const PNG_SAMPLES: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Why the size a header claims cannot be the image's, or `undefined` when the data present could
 * hold it. A header is a few bytes anyone can edit: a PNG whose IHDR says 16383×16383 over the
 * compressed pixels of an 8×8 image still ends with IEND, and kept as it is it would be written as
 * 16383×16383. PNG pixels are deflated, and deflate never expands data more than 1032 times, so
 * the IDAT chunks present bound the pixel rows they can hold: a claim beyond that is corrupt, for
 * certain (no valid file is refused). A sequential Huffman JPEG (SOF0, SOF1: nearly every JPEG)
 * codes each 8×8 block with at least 2 bits (a DC code and an end-of-block code, 1 bit each at
 * best), which bounds its blocks by its bytes in the same way. Other formats can code a plain image
 * in almost no bytes (WebP, GIF, progressive or arithmetic JPEG), so no such bound holds for them:
 * `verify: 'decode'` checks those.
 */
export function claimedSizeReason(format: ImageFormat, data: Uint8Array): string | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  try {
    if (format === 'jpeg') return jpegReason(data, view);
    return format === 'png' ? pngReason(data, view) : undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined; // a header past the end: the header reader's case
    throw error;
  }
}

function pngReason(data: Uint8Array, view: DataView): string | undefined {
  if (data.length < 33) return undefined;
  if (view.getUint32(12) !== 0x49484452) return undefined; // no IHDR first: the header reader's case
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const samples = PNG_SAMPLES[view.getUint8(25)];
  if (samples === undefined) return undefined;
  const bitsPerPixel = samples * view.getUint8(24);
  // Unfiltered, un-interlaced pixel bytes: a lower bound of what the IDAT data must inflate to.
  const pixelBytes = height * Math.ceil((width * bitsPerPixel) / 8);
  let compressed = 0;
  for (let offset = 8; offset + 8 <= data.length;) {
    const length = view.getUint32(offset);
    const type = view.getUint32(offset + 4);
    if (type === 0x49444154) compressed += length; // IDAT
    if (type === 0x49454e44) break; // IEND
    offset += 12 + length;
  }
  // A few bytes of slack for the zlib and block headers, which hold no pixels.
  const most = (compressed + 16) * DEFLATE_MAX_RATIO;
  if (pixelBytes <= most) return undefined;
  return (
    `the header claims ${width}x${height} pixels (at least ${pixelBytes} bytes once inflated), ` +
    `but its ${compressed} bytes of image data inflate to at most ${most}`
  );
}

/** Sequential Huffman frames (SOF0 baseline, SOF1 extended): at least 2 bits per 8×8 block. */
const SEQUENTIAL_HUFFMAN = new Set([0xc0, 0xc1]);

function jpegReason(data: Uint8Array, view: DataView): string | undefined {
  const frame = findJpegFrame(data, view);
  if (frame === undefined || !SEQUENTIAL_HUFFMAN.has(view.getUint8(frame + 1))) return undefined;
  const height = view.getUint16(frame + 5);
  const width = view.getUint16(frame + 7);
  const components = view.getUint8(frame + 9);
  const sampling: { horizontal: number; vertical: number }[] = [];
  for (let index = 0; index < components; index++) {
    const factors = view.getUint8(frame + 11 + 3 * index);
    sampling.push({ horizontal: factors >> 4, vertical: factors & 15 });
  }
  const most = { horizontal: 1, vertical: 1 };
  for (const { horizontal, vertical } of sampling) {
    most.horizontal = Math.max(most.horizontal, horizontal);
    most.vertical = Math.max(most.vertical, vertical);
  }
  // The blocks of the largest component alone: a file missing other components' scans is not
  // this check's business.
  let blocks = 0;
  for (const { horizontal, vertical } of sampling) {
    const across = Math.ceil(Math.ceil((width * horizontal) / most.horizontal) / 8);
    const down = Math.ceil(Math.ceil((height * vertical) / most.vertical) / 8);
    blocks = Math.max(blocks, across * down);
  }
  if (2 * blocks <= 8 * data.length) return undefined;
  return (
    `the header claims ${width}x${height} pixels (${blocks} blocks of 8x8, at least 2 bits each), ` +
    `but the file has ${data.length} bytes`
  );
}
