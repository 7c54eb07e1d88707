import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { collectAll, eachTemporaryDirectory, photo, put, value } from '../__fixtures__/make-images.js';
import { imageSource } from '../image-source.js';
import { readImageFile } from './read-image-file.js';

// As under Node's permission model without --allow-worker: starting a thread throws.
const started = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:worker_threads', () => ({
  Worker: class {
    constructor() {
      started.count++;
      throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED' });
    }
  },
}));

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

describe('readImageFile where threads cannot start', () => {
  it('reads and hashes on this thread, and stops trying to start threads', async () => {
    const bytes = await photo(64, 48, 3);
    const file = await put(dir, 'a.jpg', bytes);
    const read = await readImageFile(file, true);
    expect(Buffer.from(read.data).equals(bytes)).toBe(true);
    expect(read.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    await readImageFile(file, true);
    expect(started.count).toBe(1);
    await expect(readImageFile(path.join(dir, 'missing.jpg'), true)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('an image source still writes every record with its SHA-256', async () => {
    const files: Record<string, Buffer> = {};
    for (let index = 0; index < 5; index++) {
      files[`c/${index}.jpg`] = await photo(32, 24, index);
      await put(dir, `c/${index}.jpg`, files[`c/${index}.jpg`]!);
    }
    const rows = await collectAll(imageSource({ folder: dir, concurrency: 3 }));
    expect(rows.map((row) => value(row['image/key/sha256']))).toEqual(
      Object.values(files).map((bytes) => createHash('sha256').update(bytes).digest('hex')),
    );
  });
});
