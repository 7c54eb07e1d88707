// How many images are decoded at once by default, that the count never changes the output, and how
// many reader threads a run starts.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { pipeline } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { eachTemporaryDirectory, photo, put } from './__fixtures__/make-images.js';
import { imageExamples } from './image-examples.js';
import { imageSource } from './image-source.js';
import { resolveImageOptions, type ImageSourceOptions } from './image-source-options.js';
import { readerThreadStarts, stopImageReaders } from './processing/read-image-file.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));
afterEach(async () => {
  await stopImageReaders();
});

/** Class folders of JPEGs and PNGs of different sizes (PNGs with alpha, one grey JPEG). */
async function folder(): Promise<string> {
  const root = path.join(dir, 'images');
  for (let index = 0; index < 23; index++) {
    const width = 30 + ((index * 37) % 120);
    const height = 20 + ((index * 53) % 90);
    const jpeg = await photo(width, height, index);
    const name = String(index).padStart(2, '0');
    if (index % 3 === 0) {
      await put(root, `png/${name}.png`, await sharp(jpeg).ensureAlpha(0.5).png().toBuffer());
    } else if (index % 7 === 1) {
      await put(root, `grey/${name}.jpg`, await sharp(jpeg).greyscale().jpeg().toBuffer());
    } else {
      await put(root, `jpeg/${name}.jpg`, jpeg);
    }
  }
  return root;
}

/** The TFRecord file a conversion of `folder` writes with `options`. */
async function converted(
  root: string,
  output: string,
  options: Partial<ImageSourceOptions>,
): Promise<Buffer> {
  const file = path.join(dir, output);
  await pipeline(
    imageSource({ folder: root, ...options }),
    imageExamples(),
    tfrecordSink({ path: file }),
  ).run();
  return readFile(file);
}

describe('images in flight', () => {
  it('decodes at least 4 images at once by default, and keeps files as many as there are cores', () => {
    const cores = availableParallelism();
    expect(resolveImageOptions({ folder: dir, resize: { width: 8, height: 8 } }).concurrency).toBe(
      Math.max(4, cores),
    );
    expect(resolveImageOptions({ folder: dir, format: 'png' }).concurrency).toBe(Math.max(4, cores));
    expect(resolveImageOptions({ folder: dir }).concurrency).toBe(cores);
    expect(
      resolveImageOptions({ folder: dir, resize: { width: 8, height: 8 }, concurrency: 1 }).concurrency,
    ).toBe(1);
  });

  it('writes the same bytes, resized or kept, whatever the number in flight', async () => {
    const root = await folder();
    for (const [label, options] of [
      [
        'resized',
        { resize: { width: 24, height: 20, fit: 'cover' as const }, format: 'jpeg' as const, quality: 90 },
      ],
      ['kept', {}],
    ] as const) {
      const one = await converted(root, `${label}-1.tfrecord`, { ...options, concurrency: 1 });
      expect(one.length, label).toBeGreaterThan(23 * 100);
      for (const concurrency of [2, 4, undefined]) {
        const other = await converted(root, `${label}-${concurrency}.tfrecord`, {
          ...options,
          ...(concurrency === undefined ? {} : { concurrency }),
        });
        expect(other.equals(one), `${label}, concurrency ${concurrency}`).toBe(true);
      }
    }
  });
});

describe('reader threads', () => {
  /** The reader threads a conversion of `root` with 4 in flight starts, from none running. */
  async function threadsFor(root: string, options: Partial<ImageSourceOptions>): Promise<number> {
    await stopImageReaders();
    const before = readerThreadStarts();
    await converted(root, `threads-${before}.tfrecord`, { concurrency: 4, ...options });
    return readerThreadStarts() - before;
  }

  it('reads the files to decode on this thread or one reader thread, with 4 images in flight and 4 read ahead', async () => {
    // On this thread while reads are fast (AdaptiveReads); a slow one (a loaded machine) moves the rest to one thread.
    expect(await threadsFor(await folder(), { resize: { width: 16, height: 16 } })).toBeLessThanOrEqual(1);
  });

  it('reads and hashes kept files on as many threads as there are cores (4 at most)', async () => {
    // The 4 first reads go out at once: each finds the threads before it busy.
    expect(await threadsFor(await folder(), {})).toBe(Math.min(4, availableParallelism()));
  });
});
