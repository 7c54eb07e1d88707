import { describe, expect, it } from 'vitest';
import { vocXml } from './__fixtures__/annotations.js';
import {
  brightBox,
  collectAll,
  markerImage,
  put,
  eachTemporaryDirectory,
  value,
  values,
} from './__fixtures__/make-images.js';
import { imageSource } from './image-source.js';
import { orientBox, resizeBox, unorientBox } from './processing/box-transform.js';
import type { ResizeFit } from './processing/box-transform.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

/** The emitted box in output pixels. */
function emittedBox(row: Record<string, unknown>): {
  left: number;
  top: number;
  right: number;
  bottom: number;
} {
  const width = value(row['image/width']) as number;
  const height = value(row['image/height']) as number;
  return {
    left: (values(row['image/object/bbox/xmin'])[0] as number) * width,
    top: (values(row['image/object/bbox/ymin'])[0] as number) * height,
    right: (values(row['image/object/bbox/xmax'])[0] as number) * width,
    bottom: (values(row['image/object/bbox/ymax'])[0] as number) * height,
  };
}

async function convertOne(
  orientation: number | undefined,
  options: Record<string, unknown>,
  size = { width: 60, height: 40 },
  box = { left: 6, top: 4, width: 18, height: 10 },
): Promise<Record<string, unknown>> {
  await put(dir, 'JPEGImages/a.png', await markerImage(size.width, size.height, box, 'png', orientation));
  await put(
    dir,
    'Annotations/a.xml',
    vocXml('a.png', size.width, size.height, [
      {
        name: 'marker',
        xmin: box.left,
        ymin: box.top,
        xmax: box.left + box.width,
        ymax: box.top + box.height,
      },
    ]),
  );
  const rows = await collectAll(imageSource({ voc: `${dir}/Annotations`, concurrency: 1, ...options }));
  expect(rows).toHaveLength(1);
  return rows[0] as Record<string, unknown>;
}

describe('box transforms', () => {
  it('orientBox and unorientBox are inverse for all eight EXIF orientations', () => {
    const box = { xmin: 0.1, ymin: 0.2, xmax: 0.4, ymax: 0.9 };
    for (let orientation = 1; orientation <= 8; orientation++) {
      const back = unorientBox(orientBox(box, orientation), orientation);
      expect(back.xmin).toBeCloseTo(box.xmin, 12);
      expect(back.ymin).toBeCloseTo(box.ymin, 12);
      expect(back.xmax).toBeCloseTo(box.xmax, 12);
      expect(back.ymax).toBeCloseTo(box.ymax, 12);
    }
  });

  it('leaves normalized boxes unchanged for fit fill and inside', () => {
    const box = { xmin: 0.1, ymin: 0.2, xmax: 0.4, ymax: 0.9 };
    for (const fit of ['fill', 'inside'] as ResizeFit[]) {
      expect(resizeBox(box, { width: 640, height: 480 }, { width: 224, height: 224 }, fit)).toEqual(box);
    }
  });
});

describe('boxes follow EXIF orientation and resizing (checked against the pixels sharp produces)', () => {
  for (let orientation = 1; orientation <= 8; orientation++) {
    it(`orientation ${orientation}: the emitted box covers the white marker after auto-orient`, async () => {
      const row = await convertOne(orientation, { autoOrient: true, format: 'png' });
      const found = await brightBox(values(row['image/encoded'], true)[0] as Uint8Array);
      const box = emittedBox(row);
      const swaps = orientation >= 5;
      expect([found.width, found.height]).toEqual(swaps ? [40, 60] : [60, 40]);
      expect(value(row['image/width'])).toBe(found.width);
      expect(box.left).toBeCloseTo(found.box.left, 6);
      expect(box.top).toBeCloseTo(found.box.top, 6);
      expect(box.right).toBeCloseTo(found.box.left + found.box.width, 6);
      expect(box.bottom).toBeCloseTo(found.box.top + found.box.height, 6);
    });
  }

  for (const fit of ['cover', 'contain', 'fill', 'inside'] as ResizeFit[]) {
    for (const orientation of [1, 6]) {
      it(`fit ${fit}, orientation ${orientation}: the emitted box matches the marker within a pixel`, async () => {
        const row = await convertOne(
          orientation,
          { resize: { width: 50, height: 50, fit }, format: 'png' },
          { width: 100, height: 60 },
          { left: 30, top: 10, width: 40, height: 30 },
        );
        const found = await brightBox(values(row['image/encoded'], true)[0] as Uint8Array);
        const box = emittedBox(row);
        expect(value(row['image/width'])).toBe(found.width);
        expect(value(row['image/height'])).toBe(found.height);
        // Resampling blurs the marker's edges by up to a pixel.
        expect(Math.abs(box.left - found.box.left)).toBeLessThanOrEqual(1);
        expect(Math.abs(box.top - found.box.top)).toBeLessThanOrEqual(1);
        expect(Math.abs(box.right - (found.box.left + found.box.width))).toBeLessThanOrEqual(1);
        expect(Math.abs(box.bottom - (found.box.top + found.box.height))).toBeLessThanOrEqual(1);
      });
    }
  }

  it('keeps stored-pixel boxes and the original bytes when nothing is asked, whatever the EXIF orientation', async () => {
    const row = await convertOne(6, {});
    expect(value(row['image/width'])).toBe(60);
    expect(value(row['image/height'])).toBe(40);
    const box = emittedBox(row);
    expect([box.left, box.top, box.right, box.bottom].map((item) => Math.round(item * 1e4) / 1e4)).toEqual([
      6, 4, 24, 14,
    ]);
  });
});
