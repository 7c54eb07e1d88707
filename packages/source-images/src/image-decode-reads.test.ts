// A decoded image's file is read on the main thread: no reader thread starts for it (readImageFile).
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectAll, eachTemporaryDirectory, photo, put } from './__fixtures__/make-images.js';
import { imageSource } from './image-source.js';
import { stopImageReaders } from './processing/read-image-file.js';

/** The names of the worker threads started. */
const started = vi.hoisted(() => [] as string[]);

vi.mock('node:worker_threads', async (original) => {
  const actual = await original<typeof import('node:worker_threads')>();
  class CountedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      started.push(args[1]?.name ?? '');
    }
  }
  return { ...actual, Worker: CountedWorker };
});

let dir: string;
eachTemporaryDirectory((made) => (dir = made));
afterEach(async () => {
  await stopImageReaders();
  started.length = 0;
});

async function folder(count: number): Promise<string> {
  for (let index = 0; index < count; index++)
    await put(dir, path.join(`class${index % 2}`, `${index}.jpg`), await photo(48, 32, index));
  return dir;
}

describe('reading image files', () => {
  it('reads files to decode on the main thread, starting no reader thread', async () => {
    const root = await folder(6);
    const records = await collectAll(
      imageSource({ folder: root, concurrency: 2, resize: { width: 16, height: 16 }, format: 'png' }),
    );
    expect(records).toHaveLength(6);
    expect(started).not.toContain('tfpipe image reader');
  });

  it('reads files kept as they are on reader threads', async () => {
    const root = await folder(6);
    expect(await collectAll(imageSource({ folder: root, concurrency: 2 }))).toHaveLength(6);
    expect(started).toContain('tfpipe image reader');
  });
});
