import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytes, example, int64 } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-cli-index-'));
  // Records of different sizes, with the index the sink writes beside them as the reference.
  const writer = await createTfrecordWriter({ path: join(directory, 'written.tfrecord'), index: true });
  for (let id = 0; id < 50; id++)
    await writer.write(example({ id: int64(id), text: bytes('x'.repeat(id * 37)) }));
  await writer.close();
  await copyFile(join(directory, 'written.tfrecord'), join(directory, 'bare.tfrecord'));
  const gzipped = await createTfrecordWriter({
    path: join(directory, 'zipped.tfrecord.gz'),
    compression: 'gzip',
  });
  await gzipped.write(example({ id: int64(1) }));
  await gzipped.close();
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('tfpipe index', () => {
  it("writes the same DALI index as the sink's, and replaces an existing one", async () => {
    const reference = await readFile(join(directory, 'written.tfrecord.idx'), 'utf8');
    expect(reference.split('\n')).toHaveLength(51);
    await writeFile(join(directory, 'bare.tfrecord.idx'), 'stale\n');
    const result = await tfpipe(['index', join(directory, 'bare.tfrecord')]);
    expect(result).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `50\t${join(directory, 'bare.tfrecord.idx')}\n`,
    });
    expect(await readFile(join(directory, 'bare.tfrecord.idx'), 'utf8')).toBe(reference);
  });

  it('refuses a compressed file and a corrupt one, leaving no index or temporary behind', async () => {
    const zipped = await tfpipe(['index', join(directory, 'zipped.tfrecord.gz')]);
    expect(zipped.code).toBe(2);
    expect(zipped.stderr).toMatch(/^tfpipe index: cannot index a gzip file .*decompress it first/);
    const damaged = new Uint8Array(await readFile(join(directory, 'written.tfrecord')));
    damaged[200]! ^= 0xff;
    await writeFile(join(directory, 'damaged.tfrecord'), damaged);
    const corrupt = await tfpipe(['index', join(directory, 'damaged.tfrecord')]);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toMatch(/^tfpipe index: corrupted record/);
    const names = await readdir(directory);
    expect(names.filter((name) => name.startsWith('damaged') || name.startsWith('zipped'))).toEqual([
      'damaged.tfrecord',
      'zipped.tfrecord.gz',
    ]);
    expect(names.filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
  });
});
