// What the core conformance suite (image-conformance.test.ts) does not cover: order with images of
// mixed sizes in flight, how far the source reads ahead, and imageExamples.
import * as path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  collectAll,
  photo,
  put,
  solid,
  eachTemporaryDirectory,
  value,
  values,
} from './__fixtures__/make-images.js';
import { imageExamples } from './image-examples.js';
import { imageSource } from './image-source.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

describe('imageSource as a stream', () => {
  it('keeps input order with many images in flight, big and small mixed', async () => {
    const names: string[] = [];
    for (let index = 0; index < 12; index++) {
      const name = `c/${String(index).padStart(2, '0')}.jpg`;
      names.push(name);
      // Big images first, so later small ones finish earlier.
      await put(dir, name, index % 3 === 0 ? await photo(640, 480, index) : await photo(16, 16, index));
    }
    const rows = await collectAll(
      imageSource({ folder: dir, concurrency: 6, resize: { width: 32, height: 32 } }),
    );
    expect(rows.map((row) => value(row['image/filename']))).toEqual(names);
  });

  it('starts no more than twice `concurrency` images beyond what the consumer has read', async () => {
    // Only the first five files exist when the first record is read. With concurrency 2 the source
    // may have started images 0 to 4 (two processing, the others done and waiting for their turn);
    // had it started image 5 it would fail with INPUT_NOT_FOUND.
    const lines = ['path,label'];
    for (let index = 0; index < 8; index++) lines.push(`${index}.png,a`);
    await put(dir, 'list.csv', lines.join('\n'));
    for (let index = 0; index < 5; index++) await put(dir, `${index}.png`, await solid(2, 2, 3, 'png'));
    const reader = imageSource({ list: path.join(dir, 'list.csv'), concurrency: 2 }).getReader();
    expect((await reader.read()).done).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let index = 5; index < 8; index++) await put(dir, `${index}.png`, await solid(2, 2, 3, 'png'));
    let count = 1;
    while (!(await reader.read()).done) count++;
    expect(count).toBe(8);
  });
});

describe('imageExamples', () => {
  it('turns records into Examples, converting extra list columns by type', async () => {
    await put(dir, 'a.png', await solid(3, 2, 3, 'png'));
    await put(
      dir,
      'l.jsonl',
      '{"path":"a.png","label":"x","weight":0.5,"count":3,"tags":["p","q"],"empty":null}\n',
    );
    const examples = await collectAll(
      imageSource({ list: path.join(dir, 'l.jsonl') }).pipeThrough(imageExamples()),
    );
    const features = examples[0]!.features;
    expect(features['weight']).toEqual({ kind: 'float', value: [0.5] });
    expect(features['count']).toEqual({ kind: 'int64', value: [3n] });
    expect(values(features['tags'])).toEqual(['p', 'q']);
    expect(features['empty']).toBeUndefined();
    expect(values(features['image/height'])).toEqual([2]);
  });

  it('an end-to-end conversion keeps dimensions, labels and pixels (JPEG within tolerance)', async () => {
    const original = await photo(120, 90, 9);
    await put(dir, 'dog/a.jpg', original);
    const [built] = await collectAll(
      imageSource({
        folder: dir,
        resize: { width: 60, height: 45, fit: 'fill' },
        format: 'jpeg',
        quality: 95,
      }).pipeThrough(imageExamples()),
    );
    const encoded = values(built!.features['image/encoded'], true)[0] as Uint8Array;
    const decoded = await sharp(encoded).raw().toBuffer({ resolveWithObject: true });
    expect([decoded.info.width, decoded.info.height, decoded.info.channels]).toEqual([60, 45, 3]);
    const reference = await sharp(original).resize({ width: 60, height: 45, fit: 'fill' }).raw().toBuffer();
    let total = 0;
    for (let index = 0; index < reference.length; index++)
      total += Math.abs(reference[index]! - decoded.data[index]!);
    expect(total / reference.length).toBeLessThan(6); // mean absolute error, 0-255 scale
    expect(values(built!.features['image/class/label'])).toEqual([0]);
    expect(values(built!.features['image/class/text'])).toEqual(['dog']);
  });
});
