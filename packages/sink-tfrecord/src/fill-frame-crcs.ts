import type { Crc32cRange } from './crc32c.js';

/**
 * Writes both masked CRCs of `count` frames whose 8-byte little-endian length and data are already
 * in place: frame `index` starts at `frames[index]`, its length CRC goes at +8 and its data CRC after
 * the data. Self-contained (the CRC and the mask are computed here from `crc`), so that the CRC
 * thread runs the same source.
 */
export function fillFrameCrcs(view: DataView, frames: Int32Array, count: number, crc: Crc32cRange): void {
  let lastLength = -1;
  let lastHeader = 0;
  for (let index = 0; index < count; index++) {
    const start = frames[index]!;
    const length = view.getUint32(start, true) + view.getUint32(start + 4, true) * 0x1_0000_0000;
    if (length !== lastLength) {
      const header = crc(view, start, start + 8);
      lastHeader = (((header >>> 15) | (header << 17)) + 0xa282ead8) >>> 0;
      lastLength = length;
    }
    view.setUint32(start + 8, lastHeader, true);
    const data = crc(view, start + 12, start + 12 + length);
    view.setUint32(start + 12 + length, (((data >>> 15) | (data << 17)) + 0xa282ead8) >>> 0, true);
  }
}
