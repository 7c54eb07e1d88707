import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError, bytes, encodeExample, example, int64, reportOf } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import { collect, hex, randomPayloads, tempDir, writeAll } from './__fixtures__/helpers.js';
import { readManifest, type TfrecordManifest } from './manifest.js';
import { HOST_TAG } from './shard-names.js';
import type { TfrecordSinkOptions } from './sink-options.js';
import type { TfrecordCompression } from './tf-record.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';

const payloads = randomPayloads(50, 300, 3);

async function readPayloads(
  file: string,
  compression: TfrecordCompression | 'auto' = 'auto',
): Promise<string[]> {
  return (await collect(tfrecordSource({ paths: file, compression }))).map((record) => hex(record.data));
}

const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

type Mode = { name: string; options: Partial<TfrecordSinkOptions>; shards: number[][] };
const indexes = payloads.map((_, index) => index);
const MODES: Mode[] = [
  {
    name: 'maxRecords 20',
    options: { maxRecords: 20 },
    shards: [indexes.slice(0, 20), indexes.slice(20, 40), indexes.slice(40)],
  },
  {
    name: 'shards 3 (round-robin)',
    options: { shards: 3 },
    shards: [0, 1, 2].map((shard) => indexes.filter((index) => index % 3 === shard)),
  },
  { name: 'one shard', options: {}, shards: [indexes] },
];

describe('tfrecordSink', () => {
  for (const compression of ['none', 'gzip', 'zlib'] as const) {
    const suffix = { none: '.tfrecord', gzip: '.tfrecord.gz', zlib: '.tfrecord.zz' }[compression];

    it(`writes one file (${compression}) that reads back byte-identical, with a manifest`, async () => {
      const directory = await tempDir();
      const path = join(directory, 'out.tfrecord');
      const sink = tfrecordSink({ path, compression, payloadType: 'Example', fsync: false });
      await writeAll(sink, []);
      expect(await readPayloads(path)).toEqual([]);
      const sink2 = tfrecordSink({ path, compression, overwrite: true });
      await writeAll(sink2, payloads);
      expect(await readPayloads(path, compression)).toEqual(payloads.map(hex));
      expect(reportOf(sink2)).toMatchObject({ records: 50, shards: [{ path, records: 50 }] });
      expect((await readdir(directory)).sort()).toEqual(['out.tfrecord']);
    });

    for (const mode of MODES) {
      it(`shards by ${mode.name} (${compression}): names, order, counts`, async () => {
        const directory = await tempDir();
        const sink = tfrecordSink({ directory, prefix: 'train', compression, ...mode.options });
        await writeAll(sink, payloads);
        const count = mode.shards.length;
        const names = mode.shards.map((_, index) => `train-0000${index}-of-0000${count}${suffix}`);
        expect((await readdir(directory)).sort()).toEqual(names);
        for (const [index, name] of names.entries()) {
          expect(await readPayloads(join(directory, name))).toEqual(
            mode.shards[index]!.map((at) => hex(payloads[at]!)),
          );
        }
        expect(reportOf(sink)?.shards?.map((shard) => shard.records)).toEqual(
          mode.shards.map((shard) => shard.length),
        );
      });

      it(`writes a manifest for ${mode.name} (${compression}) with the sha256 of each file on disk`, async () => {
        const directory = await tempDir();
        const examples = payloads.map((_, index) =>
          encodeExample(example({ id: int64(index), name: bytes(`n${index}`) })),
        );
        await writeAll(
          tfrecordSink({ directory, prefix: 'train', compression, manifest: true, ...mode.options }),
          examples,
        );
        const count = mode.shards.length;
        const names = mode.shards.map((_, index) => `train-0000${index}-of-0000${count}${suffix}`);
        expect((await readdir(directory)).sort()).toEqual([...names, 'train.manifest.json'].sort());
        const manifest = JSON.parse(
          await readFile(join(directory, 'train.manifest.json'), 'utf8'),
        ) as TfrecordManifest;
        expect(manifest).toMatchObject({
          format: 'tfpipe-tfrecord-manifest',
          version: 1,
          compression,
          records: 50,
          payloadType: 'Example',
        });
        expect(manifest.features).toEqual([
          { name: 'id', kind: 'int64', present: 50, minLength: 1, maxLength: 1 },
          { name: 'name', kind: 'bytes', present: 50, minLength: 1, maxLength: 1 },
        ]);
        for (const [index, name] of names.entries()) {
          const file = join(directory, name);
          const entry = manifest.shards[index]!;
          expect(entry).toMatchObject({ name, records: mode.shards[index]!.length, compression });
          expect(entry.sha256).toBe(await sha256(file));
          expect(entry.bytes).toBe((await readFile(file)).length);
        }
        expect(await readManifest(join(directory, names[0]!))).toEqual(manifest);
        expect(await readManifest(directory)).toEqual(manifest);
      });
    }

    it(`shards by maxBytes (${compression}): no shard passes the limit, records stay in order`, async () => {
      const directory = await tempDir();
      await writeAll(tfrecordSink({ directory, prefix: 'p', compression, maxBytes: 2000 }), payloads);
      const files = (await readdir(directory)).sort();
      const total = payloads.reduce((sum, payload) => sum + payload.length + 16, 0);
      expect(files.length).toBeGreaterThanOrEqual(Math.ceil(total / 2000));
      expect(
        files.every(
          (name, index) =>
            name ===
            `p-${String(index).padStart(5, '0')}-of-${String(files.length).padStart(5, '0')}${suffix}`,
        ),
      ).toBe(true);
      const read: string[] = [];
      for (const name of files) {
        const shard = await collect(tfrecordSource({ paths: join(directory, name) }));
        expect(shard.reduce((sum, record) => sum + record.data.length + 16, 0)).toBeLessThanOrEqual(2000);
        read.push(...shard.map((record) => hex(record.data)));
      }
      expect(read).toEqual(payloads.map(hex));
    });
  }

  it('writes DALI index files whose offsets and sizes match the frames', async () => {
    const directory = await tempDir();
    await writeAll(tfrecordSink({ directory, prefix: 'd', maxRecords: 30, index: true }), payloads);
    const files = (await readdir(directory)).sort();
    expect(files).toEqual([
      'd-00000-of-00002.tfrecord',
      'd-00000-of-00002.tfrecord.idx',
      'd-00001-of-00002.tfrecord',
      'd-00001-of-00002.tfrecord.idx',
    ]);
    for (const name of ['d-00000-of-00002.tfrecord', 'd-00001-of-00002.tfrecord']) {
      const bytes = await readFile(join(directory, name));
      const lines = (await readFile(join(directory, `${name}.idx`), 'utf8')).split('\n');
      expect(lines.pop()).toBe('');
      const records = await collect(tfrecordSource({ paths: join(directory, name) }));
      expect(lines).toEqual(records.map((record) => `${record.byteOffset} ${record.data.length + 16}`));
      let offset = 0;
      for (const line of lines) {
        const [at, size] = line.split(' ').map(Number) as [number, number];
        expect(at).toBe(offset);
        expect(Number(bytes.readBigUInt64LE(at)) + 16).toBe(size);
        offset += size;
      }
      expect(offset).toBe(bytes.length);
    }
  });

  it('writes N empty shards for shards: N and one empty file for no records', async () => {
    const directory = await tempDir();
    await writeAll(tfrecordSink({ directory, prefix: 'e', shards: 3 }), []);
    expect((await readdir(directory)).sort()).toEqual([
      'e-00000-of-00003.tfrecord',
      'e-00001-of-00003.tfrecord',
      'e-00002-of-00003.tfrecord',
    ]);
    expect((await readFile(join(directory, 'e-00002-of-00003.tfrecord'))).length).toBe(0);
  });

  it('leaves no final-named file and no temporary after an abort mid-write', async () => {
    const directory = await tempDir();
    const sink = tfrecordSink({ directory, prefix: 'a', maxRecords: 5, bufferBytes: 64 * 1024, index: true });
    const writer = sink.getWriter();
    for (const payload of payloads.slice(0, 23)) await writer.write(payload);
    expect((await readdir(directory)).some((name) => name.includes('.tfpipe-tmp-'))).toBe(true);
    await writer.abort(new Error('stop'));
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses to mix old and new output: OUTPUT_EXISTS without overwrite, all replaced with it', async () => {
    const directory = await tempDir();
    await writeAll(tfrecordSink({ directory, prefix: 'r', shards: 4 }), payloads);
    const error = await rejectionOf(writeAll(tfrecordSink({ directory, prefix: 'r', shards: 2 }), payloads));
    expect(error.code).toBe('OUTPUT_EXISTS');
    expect(error.fatal).toBe(true);
    expect(error.position.file).toBe(join(directory, 'r-00000-of-00004.tfrecord'));
    expect((await readdir(directory)).length).toBe(4);
    await writeAll(
      tfrecordSink({ directory, prefix: 'r', shards: 2, overwrite: true }),
      payloads.slice(0, 3),
    );
    expect((await readdir(directory)).sort()).toEqual([
      'r-00000-of-00002.tfrecord',
      'r-00001-of-00002.tfrecord',
    ]);
    const single = join(directory, 'one.tfrecord');
    await writeFile(single, 'old');
    expect((await rejectionOf(writeAll(tfrecordSink({ path: single }), payloads))).code).toBe(
      'OUTPUT_EXISTS',
    );
    expect(await readFile(single, 'utf8')).toBe('old');
  });

  it('reports an unwritable output location as OUTPUT_UNWRITABLE naming it', async () => {
    // Tests run as root, where chmod 0o500 does not stop writes: a path under a regular file fails for everyone.
    const directory = await tempDir();
    await writeFile(join(directory, 'file.txt'), 'x');
    const under = join(directory, 'file.txt', 'out');
    const error = await rejectionOf(writeAll(tfrecordSink({ directory: under, prefix: 'x' }), payloads));
    expect(error).toMatchObject({ code: 'OUTPUT_UNWRITABLE', fatal: true, stage: 'tfrecordSink' });
    expect(error.position.file).toBe(under);
    const single = await rejectionOf(writeAll(tfrecordSink({ path: join(under, 'a.tfrecord') }), payloads));
    expect(single.code).toBe('OUTPUT_UNWRITABLE');
    const isDirectory = await rejectionOf(
      writeAll(tfrecordSink({ path: directory, overwrite: true }), payloads),
    );
    expect(isDirectory.code).toBe('OUTPUT_UNWRITABLE');
    expect(isDirectory.message).toBe(`output path is a directory in ${directory}`);
  });

  it("removes this host's temporaries a crashed run left; keeps a live process's and other hosts'", async () => {
    const directory = await tempDir();
    const ours = (pid: number): string =>
      `.t-0000${pid % 10}.tfrecord.tfpipe-tmp-${pid}-${HOST_TAG}0123456789ab`;
    const dead = ours(999_999_999);
    const live = ours(process.ppid);
    // Another host's writer (NFS): its PID means nothing here, dead or alive.
    const otherHost = `.t-00002.tfrecord.tfpipe-tmp-999999999-${HOST_TAG === 'ffffffff' ? '00000000' : 'ffffffff'}0123456789ab`;
    // An older tfpipe named no host.
    const noHost = '.t-00003.tfrecord.tfpipe-tmp-999999999-abcdef';
    for (const name of [dead, live, otherHost, noHost]) await writeFile(join(directory, name), 'partial');
    // A staging directory a killed run left (the CLI's side files) goes with its content.
    const deadStaging = join(directory, `.t-side.tfpipe-tmp-999999998-${HOST_TAG}0123456789ab`);
    await mkdir(deadStaging);
    await writeFile(join(deadStaging, 'reader_spec.py'), 'partial');
    const sink = tfrecordSink({ directory, prefix: 't' });
    await writeAll(sink, payloads);
    expect((await readdir(directory)).sort()).toEqual(
      [live, otherHost, noHost, 't-00000-of-00001.tfrecord'].sort(),
    );
    expect(reportOf(sink)?.details?.foreignTemporaries).toEqual([otherHost, noHost].sort());
  });

  it('checks options when called', () => {
    const cases: [TfrecordSinkOptions, RegExp][] = [
      [
        { path: '/tmp/x', compression: 'gzip', index: true },
        /option index: expected no index for gzip output/,
      ],
      [{ path: '/tmp/x', shards: 2 }, /option shards: expected no such option with path/],
      [
        { directory: '/tmp', shards: 2, maxRecords: 4 },
        /option maxRecords: expected no such option with shards/,
      ],
      [{ directory: '/tmp', prefix: 'a/b' }, /option prefix: expected a plain file name start/],
      [
        { directory: '/tmp', compression: 'bz2' as never },
        /option compression: expected "none", "gzip" or "zlib"/,
      ],
      [{ directory: '/tmp', level: 11 }, /option level: expected a whole number from 0 to 9, got 11/],
      [{ directory: '/tmp', maxBytes: 0 }, /option maxBytes: expected a whole number ≥ 1, got 0/],
      [{ path: '/tmp/x', crcThread: 'yes' as never }, /option crcThread: expected true or false, got "yes"/],
      [{}, /options: expected exactly one of path \(one file\), directory \(sharded output\)/],
    ];
    for (const [options, message] of cases) {
      let thrown: unknown;
      try {
        tfrecordSink(options);
      } catch (error) {
        thrown = error;
      }
      expect(TfpipeError.is(thrown) && thrown.code).toBe('INVALID_OPTION');
      expect((thrown as Error).message).toMatch(message);
    }
  });

  it('skips an input that is not a record under onError: skip, and fails on it by default', async () => {
    const directory = await tempDir();
    const path = join(directory, 's.tfrecord');
    const sink = tfrecordSink({ path, onError: 'skip' });
    await writeAll(sink, [payloads[0]!, 'text' as never, payloads[1]!]);
    expect(await readPayloads(path)).toEqual([hex(payloads[0]!), hex(payloads[1]!)]);
    expect(reportOf(sink)).toMatchObject({ records: 2, skipped: 1 });
    const failing = await rejectionOf(
      writeAll(tfrecordSink({ path: join(directory, 'f.tfrecord') }), [payloads[0]!, 42 as never]),
    );
    expect(failing).toMatchObject({ code: 'FEATURE_TYPE', position: { recordIndex: 1 } });
    expect((await readdir(directory)).sort()).toEqual(['s.tfrecord']);
  });

  it('writes records larger than its buffer', async () => {
    const directory = await tempDir();
    const path = join(directory, 'big.tfrecord');
    const big = randomPayloads(5, 200_000, 11);
    await writeAll(tfrecordSink({ path, bufferBytes: 64 * 1024 }), big);
    expect(await readPayloads(path)).toEqual(big.map(hex));
  });
});

it('creates a missing output directory', async () => {
  const directory = join(await tempDir(), 'a', 'b');
  await writeAll(tfrecordSink({ directory }), payloads.slice(0, 2));
  await mkdir(directory, { recursive: true });
  expect(await readdir(directory)).toEqual(['data-00000-of-00001.tfrecord']);
});
