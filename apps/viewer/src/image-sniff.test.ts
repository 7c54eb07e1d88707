import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageType } from './image-sniff.js';
import { imageSize } from './stats/image-size.js';
import { bmp2x2 } from './testing/tfrecord-files.js';

const pixels = () =>
  sharp({ create: { width: 7, height: 5, channels: 3, background: { r: 10, g: 200, b: 30 } } });

describe('imageType', () => {
  it('names the five formats a browser draws, from bytes sharp (and a BMP writer) made', async () => {
    const made = {
      'image/jpeg': await pixels().jpeg().toBuffer(),
      'image/png': await pixels().png().toBuffer(),
      'image/webp': await pixels().webp().toBuffer(),
      'image/gif': await pixels().gif().toBuffer(),
    };
    for (const [type, data] of Object.entries(made)) {
      expect([type, imageType(new Uint8Array(data))]).toEqual([type, type]);
      expect([type, imageSize(new Uint8Array(data), type)]).toEqual([type, { width: 7, height: 5 }]);
    }
    expect(imageType(bmp2x2())).toBe('image/bmp');
    expect(imageSize(bmp2x2(), 'image/bmp')).toEqual({ width: 2, height: 2 });
  });

  it('is undefined for text, formats a canvas may not draw and bytes cut before the magic ends', async () => {
    const tiff = new Uint8Array(await pixels().tiff().toBuffer());
    const png = new Uint8Array(await pixels().png().toBuffer());
    for (const data of [
      new TextEncoder().encode('BMW 320i'),
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      tiff,
      png.subarray(0, 5),
      new Uint8Array(0),
      new Uint8Array([0xff, 0xd8]),
    ])
      expect(imageType(data)).toBeUndefined();
  });
});
