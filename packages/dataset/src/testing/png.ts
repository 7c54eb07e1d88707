// Test helper (not exported): a PNG written byte by byte from the specification (signature, IHDR,
// zlib IDAT of filter-0 scanlines, IEND, CRC-32 per chunk), so decoded pixels are checked against
// values the test chose, not against another decoder's output.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO-HDLC), the checksum of a PNG chunk. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** PNG colour types by channel count: grey, grey + alpha, RGB, RGBA. */
const COLOUR_TYPE = { 1: 0, 2: 4, 3: 2, 4: 6 } as const;

/** An 8-bit PNG of `height × width` pixels with `channels` channels, from HWC `pixels`. */
export function pngOf(
  width: number,
  height: number,
  channels: 1 | 2 | 3 | 4,
  pixels: Uint8Array,
): Uint8Array {
  if (pixels.length !== width * height * channels) throw new Error('pngOf: wrong pixel count');
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, COLOUR_TYPE[channels], 0, 0, 0], 8);
  const stride = width * channels;
  const scanlines = new Uint8Array(height * (stride + 1));
  for (let row = 0; row < height; row++)
    scanlines.set(pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  const parts = [
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk('IHDR', header),
    chunk('IDAT', new Uint8Array(deflateSync(scanlines))),
    chunk('IEND', new Uint8Array(0)),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

/** `count` pseudo-random bytes (a fixed LCG), for pixels a test can recompute. */
export function noise(count: number, seed: number): Uint8Array {
  const out = new Uint8Array(count);
  let state = seed >>> 0;
  for (let index = 0; index < count; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[index] = state >>> 24;
  }
  return out;
}
