import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { example, int64 } from '@tfpipe/core';
import type { DeferredOutput } from '@tfpipe/core/plugin';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import { tempDir, writeAll } from './__fixtures__/helpers.js';
import { tfrecordSink } from './tfrecord-sink.js';

const payloads = Array.from({ length: 12 }, (_, index) => example({ id: int64(index) }));

/** Files (and directories) that are not the `x` prefix's output: overwrite must leave every one. */
const FOREIGN = [
  'x-00001-of-00003.pdf',
  'x-00000-of-00003.tar.gz',
  'x-00000-of-00003.tfrecord.bak',
  'val-00000-of-00002.tfrecord',
  'val-00001-of-00002.tfrecord',
  'val.manifest.json',
  'other.manifest.json',
  'notes.tfrecord',
];

async function setUp(): Promise<string> {
  const directory = await tempDir();
  for (const name of FOREIGN) await writeFile(join(directory, name), `foreign ${name}`);
  await mkdir(join(directory, 'x.tfrecord'));
  await mkdir(join(directory, 'x-00009-of-00010.tfrecord'));
  // The previous x set: three shards with indexes and a manifest.
  await writeAll(tfrecordSink({ directory, prefix: 'x', shards: 3, index: true, manifest: true }), payloads);
  return directory;
}

describe('overwrite replaces only the previous output of the same prefix', () => {
  it('keeps foreign files, other prefixes, other manifests and directories', async () => {
    const directory = await setUp();
    await writeAll(tfrecordSink({ directory, prefix: 'x', shards: 2, overwrite: true }), payloads);
    const names = (await readdir(directory)).sort();
    expect(names).toEqual(
      [
        ...FOREIGN,
        'x.tfrecord',
        'x-00009-of-00010.tfrecord',
        'x-00000-of-00002.tfrecord',
        'x-00001-of-00002.tfrecord',
      ].sort(),
    );
    for (const name of FOREIGN) expect(await readFile(join(directory, name), 'utf8')).toBe(`foreign ${name}`);
  });

  it('removes a shard its manifest lists under another suffix, and nothing the manifest does not list', async () => {
    const directory = await tempDir();
    await writeAll(
      tfrecordSink({ directory, prefix: 'y', shards: 2, suffix: '.rec', manifest: true }),
      payloads,
    );
    await writeFile(join(directory, 'y-00000-of-00002.pdf'), 'foreign');
    await writeAll(tfrecordSink({ directory, prefix: 'y', overwrite: true }), payloads);
    expect((await readdir(directory)).sort()).toEqual(['y-00000-of-00001.tfrecord', 'y-00000-of-00002.pdf']);
  });

  it('refuses a directory under a final name before renaming anything, and keeps the old set', async () => {
    const directory = await setUp();
    const before = (await readdir(directory)).sort();
    const error = await rejectionOf(
      writeAll(tfrecordSink({ directory, prefix: 'x', shards: 10, overwrite: true }), payloads),
    );
    expect(error).toMatchObject({ code: 'OUTPUT_EXISTS', fatal: true });
    expect(error.position.file).toBe(join(directory, 'x-00009-of-00010.tfrecord'));
    expect(error.message).toMatch(/taken by a directory/);
    expect((await readdir(directory)).sort()).toEqual(before);
  });

  it('with deferOutput renames nothing on close, and removes the old set only after the new one is in place', async () => {
    const directory = await setUp();
    const before = (await readdir(directory)).sort();
    const handed: DeferredOutput[] = [];
    const options = {
      directory,
      prefix: 'x',
      shards: 2,
      overwrite: true,
      deferOutput: (output: DeferredOutput) => handed.push(output),
    };
    await writeAll(tfrecordSink(options), payloads);
    expect(handed).toHaveLength(1);
    // Closed, not yet renamed: the old set is whole, the new one exists only under temporary names.
    const closed = await readdir(directory);
    expect(closed.filter((name) => !name.startsWith('.')).sort()).toEqual(before);
    expect(closed.filter((name) => name.includes('.tfpipe-tmp-'))).toHaveLength(2);
    // A failure elsewhere in the run: discard, the old set is untouched and no temporary is left.
    await handed[0]!.discard();
    expect((await readdir(directory)).sort()).toEqual(before);

    await writeAll(tfrecordSink(options), payloads);
    const output = handed[1]!;
    await output.check();
    await output.rename();
    const renamed = await readdir(directory);
    expect(renamed).toContain('x-00000-of-00002.tfrecord');
    expect(renamed).toContain('x-00000-of-00003.tfrecord');
    const removed = await output.removeReplaced();
    expect(removed.map((path) => path.slice(directory.length + 1)).sort()).toEqual([
      'x-00000-of-00003.tfrecord',
      'x-00000-of-00003.tfrecord.idx',
      'x-00001-of-00003.tfrecord',
      'x-00001-of-00003.tfrecord.idx',
      'x-00002-of-00003.tfrecord',
      'x-00002-of-00003.tfrecord.idx',
      'x.manifest.json',
    ]);
    expect(
      (await readdir(directory)).filter((name) => /^x-\d{5}-of-00003\.tfrecord(\.idx)?$/.test(name)),
    ).toEqual([]);
  });
});

describe('compression from the output name', () => {
  it('gzips a path ending in .gz and zlib-compresses a suffix ending in .zz', async () => {
    const directory = await tempDir();
    await writeAll(tfrecordSink({ path: join(directory, 'a.tfrecord.gz') }), payloads);
    expect([...(await readFile(join(directory, 'a.tfrecord.gz'))).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    await writeAll(tfrecordSink({ directory, prefix: 'z', suffix: '.tfrecord.zz' }), payloads);
    expect((await readFile(join(directory, 'z-00000-of-00001.tfrecord.zz')))[0]).toBe(0x78);
  });

  it('refuses a compression that contradicts the name', () => {
    expect(() => tfrecordSink({ path: '/tmp/a.tfrecord.gz', compression: 'none' })).toThrow(
      /tfrecordSink option compression: expected "gzip", which the path "\/tmp\/a.tfrecord.gz" says, got "none"/,
    );
    expect(() => tfrecordSink({ directory: '/tmp', suffix: '.tfrecord.zz', compression: 'gzip' })).toThrow(
      /option compression: expected "zlib", which the suffix ".tfrecord.zz" says, got "gzip"/,
    );
  });
});
