import { unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { reportOf, TfpipeError } from '@tfpipe/core';
import { describe, expect, it, vi } from 'vitest';
import { eachTemporaryDirectory, put, solid } from './__fixtures__/make-images.js';
import { imageSource } from './image-source.js';
import { readImageFile } from './processing/read-image-file.js';
import type * as ReadImageFile from './processing/read-image-file.js';

// The real reader, wrapped so that one test can make a read fail as a dying reader thread would.
vi.mock('./processing/read-image-file.js', async (importOriginal) => {
  const actual = await importOriginal<typeof ReadImageFile>();
  return { ...actual, readImageFile: vi.fn(actual.readImageFile) };
});

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

async function tree(count: number): Promise<string[]> {
  const image = await solid(8, 8, 3, 'png');
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    files.push(await put(dir, `class${index % 2}/img${String(index).padStart(2, '0')}.png`, image));
  }
  return files;
}

describe('image files that change while a folder is read', () => {
  it('an image deleted after the listing is an error naming it; under skip it is counted and the rest written', async () => {
    const files = await tree(6);
    // Class folders are read in order: class0 holds images 0, 2, 4; the last one listed is img05.
    const last = files[5]!;
    const reader = imageSource({ folder: dir, concurrency: 1 }).getReader();
    await reader.read();
    await unlink(last);
    let error: unknown;
    try {
      while (!(await reader.read()).done);
    } catch (thrown) {
      error = thrown;
    }
    expect(TfpipeError.is(error)).toBe(true);
    expect((error as TfpipeError).position.file).toBe(last);

    await writeFile(last, 'not an image any more');
    const skipping = imageSource({ folder: dir, concurrency: 1, onError: 'skip' });
    const skipReader = skipping.getReader();
    await skipReader.read();
    await unlink(last);
    let records = 1;
    while (!(await skipReader.read()).done) records++;
    expect(records).toBe(5);
    expect(reportOf(skipping)?.skipped).toBe(1);
    expect(reportOf(skipping)?.skippedErrors?.[0]?.position.file).toBe(path.join(dir, 'class1/img05.png'));
  });
});

describe('an image that is slow to read', () => {
  it('holds up neither the images after it nor their reads, up to twice `concurrency` started', async () => {
    const files = await tree(8);
    // Class folders are read in order: class0 holds images 0, 2, 4, 6 and class1 the odd ones.
    const order = [
      ...files.filter((_, index) => index % 2 === 0),
      ...files.filter((_, index) => index % 2 === 1),
    ];
    const actual = await vi.importActual<typeof ReadImageFile>('./processing/read-image-file.js');
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    vi.mocked(readImageFile).mockImplementation(async (file, hash) => {
      started.push(file);
      if (file === order[0]) await held;
      return actual.readImageFile(file, hash);
    });
    try {
      const reader = imageSource({ folder: dir, concurrency: 2, keys: { sha256: false } }).getReader();
      const first = reader.read();
      // With the first image held, each image after it that finishes frees its slot for the next,
      // until four (twice `concurrency`) are started and not handed out.
      await vi.waitFor(() => expect(started).toEqual(order.slice(0, 4)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started).toEqual(order.slice(0, 4));
      release();
      expect((await first).done).toBe(false);
      let records = 1;
      while (!(await reader.read()).done) records++;
      expect(records).toBe(8);
      expect(started).toEqual(order);
    } finally {
      vi.mocked(readImageFile).mockRestore();
    }
  });
});

describe('a reader thread that dies', () => {
  it('is an INTERNAL error naming the image, fatal even under skip', async () => {
    const files = await tree(4);
    const actual = await vi.importActual<typeof ReadImageFile>('./processing/read-image-file.js');
    vi.mocked(readImageFile).mockImplementation((file, hash) =>
      file === files[2]
        ? Promise.reject(new Error('image reader thread exited (code 1)'))
        : actual.readImageFile(file, hash),
    );
    try {
      const reader = imageSource({ folder: dir, concurrency: 2, onError: 'skip' }).getReader();
      let records = 0;
      let error: unknown;
      try {
        while (!(await reader.read()).done) records++;
      } catch (thrown) {
        error = thrown;
      }
      expect(TfpipeError.is(error)).toBe(true);
      expect((error as TfpipeError).code).toBe('INTERNAL');
      expect((error as TfpipeError).fatal).toBe(true);
      expect((error as TfpipeError).position.file).toBe(files[2]);
      // Class folders are read in order: class0 holds images 0 and 2, so image 0 came first.
      expect(records).toBe(1);
    } finally {
      vi.mocked(readImageFile).mockRestore();
    }
  });
});
