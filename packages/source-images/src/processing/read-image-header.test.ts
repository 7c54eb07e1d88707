import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { values } from '../__fixtures__/make-images.js';
import { raccoonExamples } from '../__fixtures__/read-records.js';
import { readImageHeader } from './read-image-header.js';
import { sniffImageFormat, type ImageFormat } from './sniff-image-format.js';

/** What sharp says of `data`, in the header reader's terms. */
async function sharpHeader(data: Uint8Array): Promise<unknown> {
  const { width, height, channels, orientation } = await sharp(data).metadata();
  return { width, height, channels, orientation: orientation ?? 1 };
}

/** An image of `channels` bands with varied pixels (so palette and lossy encoders keep them apart). */
function pixels(width: number, height: number, channels: 1 | 2 | 3 | 4): Sharp {
  const data = Buffer.alloc(width * height * channels);
  for (let index = 0; index < data.length; index++) data[index] = (index * 37 + (index >> 5)) & 0xff;
  const image = sharp(data, { raw: { width, height, channels } });
  return channels <= 2 ? image.toColourspace('b-w') : image;
}

const sizes: [number, number][] = [
  [1, 1],
  [3, 5],
  [17, 9],
  [640, 480],
];

/** Generated images of every kind the reader must decide, and `decided: false` where it defers to sharp. */
async function generated(): Promise<{ name: string; data: Buffer; decided: boolean }[]> {
  const cases: { name: string; data: Buffer; decided: boolean }[] = [];
  const add = async (name: string, image: Sharp, decided = true): Promise<void> => {
    cases.push({ name, data: await image.toBuffer(), decided });
  };
  for (const [width, height] of sizes) {
    const size = `${width}x${height}`;
    for (const channels of [1, 3] as const) {
      await add(`jpeg ${size} ${channels}`, pixels(width, height, channels).jpeg());
      await add(
        `progressive jpeg ${size} ${channels}`,
        pixels(width, height, channels).jpeg({ progressive: true }),
      );
    }
    await add(`jpeg 4:4:4 ${size}`, pixels(width, height, 3).jpeg({ chromaSubsampling: '4:4:4' }));
    await add(`cmyk jpeg ${size}`, pixels(width, height, 3).toColourspace('cmyk').jpeg());
    for (const channels of [1, 2, 3, 4] as const) {
      await add(`png ${size} ${channels}`, pixels(width, height, channels).png());
      await add(
        `16-bit png ${size} ${channels}`,
        pixels(width, height, channels)
          .png()
          .toColourspace(channels <= 2 ? 'grey16' : 'rgb16'),
      );
      await add(`palette png ${size} ${channels}`, pixels(width, height, channels).png({ palette: true }));
    }
    for (const channels of [3, 4] as const) {
      await add(`lossy webp ${size} ${channels}`, pixels(width, height, channels).webp());
      await add(
        `lossless webp ${size} ${channels}`,
        pixels(width, height, channels).webp({ lossless: true }),
      );
      await add(`gif ${size} ${channels}`, pixels(width, height, channels).gif());
    }
    await add(`grey gif ${size}`, pixels(width, height, 1).gif());
    await add(
      `webp with exif ${size}`,
      pixels(width, height, 3).webp().withMetadata({ orientation: 6 }),
      false,
    );
    await add(
      `png with exif ${size}`,
      pixels(width, height, 3).png().withMetadata({ orientation: 3 }),
      false,
    );
  }
  for (let orientation = 1; orientation <= 8; orientation++) {
    await add(`jpeg orientation ${orientation}`, pixels(40, 30, 3).jpeg().withMetadata({ orientation }));
    await add(
      `jpeg exif orientation ${orientation}`,
      pixels(8, 6, 3)
        .jpeg()
        .withExif({ IFD0: { Orientation: String(orientation), Copyright: 'x' } }),
    );
  }
  await add(
    'jpeg with xmp',
    pixels(16, 16, 3).jpeg().withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>'),
  );
  await add('jpeg with icc', pixels(16, 16, 3).jpeg().withIccProfile('p3'));
  const frames = sharp({ create: { width: 12, height: 20, channels: 3, background: '#336699' } });
  await add('one-frame animated webp', sharp(await frames.webp().toBuffer()).webp({ loop: 0 }), false);
  const stacked = Buffer.concat([Buffer.alloc(12 * 10 * 3, 10), Buffer.alloc(12 * 10 * 3, 200)]);
  const strip = sharp(stacked, { raw: { width: 12, height: 20, channels: 3, pageHeight: 10 } });
  await add('animated gif', strip.clone().gif());
  await add('animated webp of two frames', strip.clone().webp(), false);
  return cases;
}

describe('readImageHeader', () => {
  it('agrees with sharp metadata() on generated JPEG, PNG, WebP and GIF images, deciding the common ones', async () => {
    const cases = await generated();
    expect(cases.length).toBeGreaterThan(100);
    for (const { name, data, decided } of cases) {
      const format = sniffImageFormat(data) as ImageFormat;
      const header = readImageHeader(format, data);
      if (decided) expect(header, name).toBeDefined();
      if (header !== undefined) expect(header, name).toEqual(await sharpHeader(data));
    }
  });

  it('agrees with sharp on the 40 raccoon JPEGs written by the TF Object Detection tooling', async () => {
    const examples = await raccoonExamples();
    expect(examples).toHaveLength(40);
    for (const features of examples) {
      const data = values(features['image/encoded'], true)[0] as Uint8Array;
      const header = readImageHeader('jpeg', data);
      expect(header).toEqual(await sharpHeader(data));
      expect([header?.width, header?.height]).toEqual([
        ...values(features['image/width']),
        ...values(features['image/height']),
      ]);
    }
  });

  it('returns undefined for a header cut short or damaged, so sharp decides (and reports the error)', async () => {
    const jpeg = await pixels(20, 10, 3).jpeg().toBuffer();
    const png = await pixels(20, 10, 3).png().toBuffer();
    const webp = await pixels(20, 10, 3).webp().toBuffer();
    for (let length = 2; length < 40; length++)
      expect(readImageHeader('png', png.subarray(0, length))).toBeUndefined();
    // A lossy WebP's size ends at byte 30.
    for (let length = 12; length < 30; length++)
      expect(readImageHeader('webp', webp.subarray(0, length))).toBeUndefined();
    expect(readImageHeader('jpeg', jpeg.subarray(0, 100))).toBeUndefined();
    const garbage = Buffer.from(jpeg);
    garbage[2] = 0x00; // no marker where the first segment should start
    expect(readImageHeader('jpeg', garbage)).toBeUndefined();
    const zeroHeight = Buffer.from(png);
    zeroHeight.writeUInt32BE(0, 20);
    expect(readImageHeader('png', zeroHeight)).toBeUndefined();
  });
});
