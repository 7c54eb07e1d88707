import sharp from 'sharp';
import type { Sharp, SharpConstructor } from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { collectAll, eachTemporaryDirectory, photo, put } from '../__fixtures__/make-images.js';
import { imageSource } from '../image-source.js';
import { PixelBudget } from './pixel-budget.js';

// Real sharp, with the pixels of the decodes in progress counted (the run's peak is what we bound).
const decoding = vi.hoisted(() => ({ pixels: 0, peak: 0 }));
vi.mock('../load-sharp.js', () => ({
  loadSharp: () =>
    Promise.resolve(((input: Uint8Array, options: object) => {
      const image: Sharp = sharp(input, options);
      const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      const toBuffer = image.toBuffer.bind(image) as (options?: object) => Promise<unknown>;
      // Each photo below is square; its side is in the JPEG frame header.
      const pixels = bytes.readUInt16BE(bytes.indexOf(Buffer.from([0xff, 0xc0])) + 5) ** 2;
      (image as { toBuffer: unknown }).toBuffer = async (options?: object) => {
        decoding.pixels += pixels;
        decoding.peak = Math.max(decoding.peak, decoding.pixels);
        try {
          return await toBuffer(options);
        } finally {
          decoding.pixels -= pixels;
        }
      };
      return image;
    }) as unknown as SharpConstructor),
  sharpRequests: () => 0,
}));

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

describe('PixelBudget', () => {
  it('lets shares run together while they fit, then one at a time, first come first served', async () => {
    const budget = new PixelBudget(100);
    const first = await budget.take(60);
    const order: string[] = [];
    const second = budget.take(60).then((giveBack) => (order.push('second'), giveBack));
    const third = budget.take(10).then((giveBack) => (order.push('third'), giveBack));
    await Promise.resolve();
    // The third would fit, but waits behind the second: a large share is never starved.
    expect(order).toEqual([]);
    first();
    first(); // twice gives back once
    (await second)();
    expect(order).toEqual(['second', 'third']);
    (await third)();
    expect(budget.used).toBe(0);
  });

  it('runs a share larger than the whole budget alone', async () => {
    const budget = new PixelBudget(100);
    const huge = await budget.take(1000);
    expect(budget.used).toBe(100);
    let small = false;
    const waiting = budget.take(1).then((giveBack) => ((small = true), giveBack));
    await Promise.resolve();
    expect(small).toBe(false);
    huge();
    (await waiting)();
  });
});

it('an image source decodes at most maxPixels at once, whatever its concurrency', async () => {
  // Six 300x300 images (90,000 pixels each), 4 in flight, maxPixels 200,000: at most 2 decode at once.
  for (let index = 0; index < 6; index++) await put(dir, `cat/${index}.jpg`, await photo(300, 300, index));
  decoding.peak = 0;
  const options = { folder: dir, concurrency: 4, maxPixels: 200_000, format: 'png' } as const;
  expect(await collectAll(imageSource(options))).toHaveLength(6);
  expect(decoding.peak).toBe(180_000);
});
