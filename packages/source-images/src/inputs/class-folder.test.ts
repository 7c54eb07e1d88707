import { mkdir, writeFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { collectAll, eachTemporaryDirectory, put, solid } from '../__fixtures__/make-images.js';
import { imageSource } from '../image-source.js';

const linux = process.platform === 'linux';
if (!linux) console.warn('class-folder.test: names that are not UTF-8 need Linux, these cases are skipped');

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

const bytesPath = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

async function failure(folder: string): Promise<TfpipeError> {
  try {
    await collectAll(imageSource({ folder }));
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the source to fail');
}

describe.skipIf(!linux)('class folders with names that are not UTF-8', () => {
  it('an image whose name is not UTF-8 fails naming it, never skipped', async () => {
    const png = await solid(2, 2, 3, 'png');
    await put(dir, 'cat/a.png', png);
    await writeFile(bytesPath(`${dir}/cat/d`, [0xff], '.png'), png);
    const error = await failure(dir);
    expect(error.code).toBe('IO');
    expect(error.message).toBe(
      `cannot read a file whose name is not valid UTF-8 in ${dir}/cat/d\\xFF.png: rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest)`,
    );
  });

  it('a class folder whose name is not UTF-8 fails naming it (was a codeless ENOENT)', async () => {
    await put(dir, 'cat/a.png', await solid(2, 2, 3, 'png'));
    await mkdir(bytesPath(`${dir}/b`, [0xff]));
    await writeFile(bytesPath(`${dir}/b`, [0xff], '/q.png'), await solid(2, 2, 3, 'png'));
    const error = await failure(dir);
    expect(error.code).toBe('IO');
    expect(error.position.file).toBe(`${dir}/b\\xFF`);
  });

  it('a file that is not an image is ignored whatever its name', async () => {
    await put(dir, 'cat/a.png', await solid(2, 2, 3, 'png'));
    await writeFile(bytesPath(`${dir}/cat/notes-`, [0xff], '.txt'), 'x');
    expect(await collectAll(imageSource({ folder: dir }))).toHaveLength(1);
  });
});
