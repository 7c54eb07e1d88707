// Decode mode reads the next images' files while sharp works on the current ones (imageSource).
import * as path from 'node:path';
import { reportOf } from '@tfpipe/core';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectAll, eachTemporaryDirectory, photo, put, value, values } from './__fixtures__/make-images.js';
import { imageExamples } from './image-examples.js';
import { imageSource } from './image-source.js';
import { stopImageReaders } from './processing/read-image-file.js';
import { reads, resetReads } from './__fixtures__/read-tracking.js';

vi.mock('./processing/read-image-file.js', async (original) =>
  (await import('./__fixtures__/read-tracking.js')).tracking(await original()),
);

let dir: string;
eachTemporaryDirectory((made) => (dir = made));
afterEach(async () => {
  await stopImageReaders();
  resetReads();
});

/** `count` JPEGs of different sizes listed in `list.csv` (class `a`), with `missing` listed but absent. */
async function listed(count: number, missing: readonly number[] = []): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const lines = ['path,label'];
  for (let index = 0; index < count; index++) {
    const name = `${String(index).padStart(2, '0')}.jpg`;
    lines.push(`${name},a`);
    if (missing.includes(index)) continue;
    const data = await photo(40 + ((index * 29) % 90), 30 + ((index * 41) % 70), index);
    await put(dir, name, data);
    files.set(name, data);
  }
  await put(dir, 'list.csv', `${lines.join('\n')}\n`);
  return files;
}

const resize = { width: 24, height: 20, fit: 'fill' as const };

describe('imageSource read-ahead (decode mode)', () => {
  it('reads at most `concurrency` files ahead, and every image comes out in order and exact', async () => {
    const files = await listed(16);
    const examples = await collectAll(
      imageSource({ list: path.join(dir, 'list.csv'), concurrency: 2, resize, format: 'png' }).pipeThrough(
        imageExamples(),
      ),
    );
    expect(
      examples.map((example) => path.basename(value(example.features['image/filename']) as string)),
    ).toEqual([...files.keys()]);
    for (const example of examples) {
      const name = path.basename(value(example.features['image/filename']) as string);
      const expected = await sharp(files.get(name)).autoOrient().resize(resize).png().toBuffer();
      expect(
        Buffer.from(values(example.features['image/encoded'], true)[0] as Uint8Array).equals(expected),
      ).toBe(true);
    }
    // Two in sharp and up to two read ahead: more than two files at once shows the read-ahead.
    expect(reads.most).toBeGreaterThan(2);
    expect(reads.most).toBeLessThanOrEqual(4);
    expect(reads.list.every((read) => read.givenBack)).toBe(true);
  });

  it('reports a file that cannot be read in its own turn, read ahead or not, and writes the others', async () => {
    const files = await listed(10, [3, 6]);
    const source = imageSource({
      list: path.join(dir, 'list.csv'),
      concurrency: 2,
      resize,
      format: 'png',
      onError: 'skip',
    });
    const examples = await collectAll(source.pipeThrough(imageExamples()));
    expect(
      examples.map((example) => path.basename(value(example.features['image/filename']) as string)),
    ).toEqual([...files.keys()]);
    const report = reportOf(source)!;
    expect(report.skipped).toBe(2);
    expect(
      (report.skippedErrors ?? []).map((error) => [
        error.code,
        error.position?.recordIndex,
        path.basename(error.position?.file ?? ''),
      ]),
    ).toEqual([
      ['INPUT_NOT_FOUND', 3, '03.jpg'],
      ['INPUT_NOT_FOUND', 6, '06.jpg'],
    ]);
  });

  it('gives back the files read ahead when the stream is cancelled', async () => {
    await listed(12);
    const reader = imageSource({
      list: path.join(dir, 'list.csv'),
      concurrency: 3,
      resize,
      format: 'png',
    }).getReader();
    await reader.read();
    // Cancel only once files are held ahead (on a loaded machine the first record can come out before any).
    await vi.waitFor(() => expect(reads.list.length).toBeGreaterThan(1), { timeout: 10_000 });
    await reader.cancel();
    // What was in sharp and what was read ahead settle after the cancel: wait for every read to.
    await vi.waitFor(() => expect(reads.holding).toBe(0), { timeout: 5000 });
    expect(reads.list.length).toBeGreaterThan(1);
    expect(reads.list.every((read) => read.givenBack)).toBe(true);
  });
});
