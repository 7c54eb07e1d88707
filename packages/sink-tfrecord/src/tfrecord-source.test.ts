import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { reportOf, type StageReport } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import {
  CORPUS,
  collect,
  corpusDir,
  framedFile,
  frameOffsets,
  hex,
  randomPayloads,
  tempDir,
} from './__fixtures__/helpers.js';
import { countRecords, verifyTfrecord } from './read-examples.js';
import type { LostRegion } from './tf-record.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';

const details = (report: StageReport | undefined) =>
  report?.details as {
    compression: Record<string, string>;
    lost: LostRegion[];
    lostBytes: number;
    files: number;
  };

describe('tfrecordSource on files TensorFlow and TFX wrote', () => {
  for (const { file, records, compression } of CORPUS) {
    it(`reads ${file}: ${records} records, ${compression} detected, every CRC verified`, async () => {
      const path = join(corpusDir, file);
      const source = tfrecordSource({ paths: path });
      const read = await collect(source);
      expect(read.length).toBe(records);
      expect(read.at(-1)?.recordIndex).toBe(records - 1);
      const report = reportOf(source)!;
      expect(report).toMatchObject({ records, skipped: 0, bytes: (await readFile(path)).length });
      expect(details(report).compression).toEqual({ [path]: compression });
    });
  }

  for (const compression of ['none', 'gzip', 'zlib'] as const) {
    it(`rewrites every corpus file with our sink (${compression}) and reads back the same payloads`, async () => {
      const directory = await tempDir();
      for (const { file, compression: fileCompression } of CORPUS) {
        const original = await collect(tfrecordSource({ paths: join(corpusDir, file) }));
        const path = join(directory, `${file}.${compression}`);
        await tfrecordSource({ paths: join(corpusDir, file) })
          .pipeThrough(
            new TransformStream({ transform: (record, controller) => controller.enqueue(record.data) }),
          )
          .pipeTo(tfrecordSink({ path, compression }));
        const copy = await collect(tfrecordSource({ paths: path }));
        expect(copy.map((record) => hex(record.data))).toEqual(original.map((record) => hex(record.data)));
        if (compression === 'none' && fileCompression === 'none') {
          // An uncompressed original is reproduced byte for byte.
          expect(hex(await readFile(path))).toBe(hex(await readFile(join(corpusDir, file))));
        }
      }
    });
  }

  it('reads several files and globs in order, skipping index and manifest sidecars', async () => {
    const directory = await tempDir();
    await mkdir(join(directory, 'sub'));
    const payloads = randomPayloads(6, 50, 5);
    await writeFile(join(directory, 'a.tfrecord'), framedFile(payloads.slice(0, 2)));
    await writeFile(join(directory, 'b.tfrecord'), framedFile(payloads.slice(2, 4)));
    await writeFile(join(directory, 'sub', 'c.tfrecord'), framedFile(payloads.slice(4)));
    await writeFile(join(directory, 'a.tfrecord.idx'), '0 16\n');
    await writeFile(join(directory, 'data.manifest.json'), '{}');
    const read = async (paths: string | string[]) =>
      (await collect(tfrecordSource({ paths }))).map((record) => hex(record.data));
    expect(await read(join(directory, '*'))).toEqual(payloads.slice(0, 4).map(hex));
    expect(await read(join(directory, '**', '*.tfrecord'))).toEqual(payloads.map(hex));
    expect(await read(join(directory, '{b,sub/c}.tfrecord'))).toEqual(payloads.slice(2).map(hex));
    expect(await read([join(directory, 'b.tfrecord'), join(directory, 'a.tfrecord')])).toEqual(
      [...payloads.slice(2, 4), ...payloads.slice(0, 2)].map(hex),
    );
    expect(await read(join(directory, '?.tfrecord'))).toEqual(payloads.slice(0, 4).map(hex));
  });

  it('does not mistake a raw file whose first record length looks like a zlib or gzip header', async () => {
    const directory = await tempDir();
    // 376 = 0x0178: the file starts 78 01, a valid zlib header; 35615 = 0x8b1f starts 1f 8b, gzip's magic.
    for (const length of [376, 35615]) {
      const payloads = [new Uint8Array(length).fill(7), new Uint8Array(3)];
      const path = join(directory, `raw-${length}.tfrecord`);
      await writeFile(path, framedFile(payloads));
      const source = tfrecordSource({ paths: path });
      expect((await collect(source)).map((record) => record.data.length)).toEqual([length, 3]);
      expect(details(reportOf(source)).compression[path]).toBe('none');
    }
  });

  it('reads the compression given instead of detecting it, and says so when it is wrong', async () => {
    const directory = await tempDir();
    const path = join(directory, 'x.tfrecord');
    await writeFile(path, gzipSync(framedFile(randomPayloads(3, 20))));
    expect((await collect(tfrecordSource({ paths: path, compression: 'gzip' }))).length).toBe(3);
    const error = await rejectionOf(collect(tfrecordSource({ paths: path, compression: 'none' })));
    expect(error).toMatchObject({
      code: 'RECORD_CRC',
      position: { file: path, byteOffset: 0, recordIndex: 0 },
    });
    const zlib = await rejectionOf(collect(tfrecordSource({ paths: path, compression: 'zlib' })));
    expect(zlib).toMatchObject({ code: 'DECOMPRESS', position: { file: path } });
  });

  it('rejects a truncated gzip file with DECOMPRESS, and keeps what came before under skip', async () => {
    const directory = await tempDir();
    const payloads = randomPayloads(400, 500, 8);
    const raw = framedFile(payloads);
    const gz = gzipSync(raw);
    const path = join(directory, 'cut.tfrecord.gz');
    const cut = Math.floor(gz.length / 2);
    await writeFile(path, gz.subarray(0, cut));
    const error = await rejectionOf(collect(tfrecordSource({ paths: path })));
    expect(error.code).toBe('DECOMPRESS');
    // File offsets first: where the compressed input ended, not how far decompression got.
    expect(error.message).toMatch(
      new RegExp(`^cannot decompress gzip data at byte ${cut} of ${path}: unexpected end of file \\(`),
    );
    const source = tfrecordSource({ paths: path, onError: 'skip' });
    const kept = await collect(source);
    expect(kept.length).toBeGreaterThan(50);
    expect(kept.map((record) => hex(record.data))).toEqual(payloads.slice(0, kept.length).map(hex));
    const lost = details(reportOf(source)).lost;
    // The record cut short (stream offsets), then the compressed bytes after the failure (none here).
    expect(lost).toMatchObject([
      { code: 'RECORD_TRUNCATED', start: frameOffsets(payloads)[kept.length], records: undefined },
      { code: 'DECOMPRESS', start: cut, end: cut, bytes: 0 },
    ]);
    expect(reportOf(source)?.skipped).toBe(1);
  });

  for (const [format, compress] of [
    ['gzip', gzipSync],
    ['zlib', deflateSync],
  ] as const) {
    it(`loses no record to a damaged ${format} trailer, and still reports it (DECOMPRESS)`, async () => {
      // The last 4 bytes are the trailer checksum (gzip: ISIZE after CRC-32; zlib: Adler-32): every
      // record decodes before the check fails. DecompressionStream dropped the chunks still queued.
      const directory = await tempDir();
      const payloads = randomPayloads(3000, 2000, 9);
      const compressed = new Uint8Array(compress(framedFile(payloads)));
      compressed[compressed.length - (format === 'gzip' ? 6 : 2)]! ^= 0x10;
      const path = join(directory, `trailer.tfrecord.${format === 'gzip' ? 'gz' : 'zz'}`);
      await writeFile(path, compressed);
      const error = await rejectionOf(collect(tfrecordSource({ paths: path })));
      expect(error.code).toBe('DECOMPRESS');
      const source = tfrecordSource({ paths: path, onError: 'skip' });
      const kept = await collect(source);
      expect(kept.map((record) => hex(record.data))).toEqual(payloads.map(hex));
      // The damaged trailer itself is the region reported, in file offsets.
      const trailer = format === 'gzip' ? 8 : 4;
      expect(details(reportOf(source)).lost).toMatchObject([
        { code: 'DECOMPRESS', start: compressed.length - trailer, end: compressed.length, bytes: trailer },
      ]);
    });
  }

  it('names the file, byte offset and record of a corrupted record on disk, and recovers under skip', async () => {
    const directory = await tempDir();
    const payloads = randomPayloads(10, 100, 4);
    const bytes = framedFile(payloads);
    const offsets = frameOffsets(payloads);
    bytes[offsets[6]! + 12]! ^= 0xff;
    const path = join(directory, 'bad.tfrecord');
    await writeFile(path, bytes);
    const error = await rejectionOf(collect(tfrecordSource({ paths: path })));
    expect(error.message).toBe(
      `corrupted record at byte ${offsets[6]} (record 6) of ${path}: data CRC mismatch`,
    );
    const verdict = await verifyTfrecord(path);
    expect(verdict).toMatchObject({
      ok: false,
      records: 9,
      problems: 1,
      lostBytes: offsets[7]! - offsets[6]!,
    });
    expect(verdict.lost).toEqual([
      {
        file: path,
        start: offsets[6],
        end: offsets[7],
        bytes: offsets[7]! - offsets[6]!,
        code: 'RECORD_CRC',
        reason: 'data CRC mismatch',
        records: 1,
      },
    ]);
    await expect(countRecords(path)).rejects.toThrow(/corrupted record/);
    expect(await countRecords(join(corpusDir, 'tfx_penguin_train.tfrecord.gz'))).toBe(234);
  });

  it('fails on missing files, directories and empty globs with the path', async () => {
    const directory = await tempDir();
    const missing = await rejectionOf(collect(tfrecordSource({ paths: join(directory, 'nope.tfrecord') })));
    expect(missing).toMatchObject({
      code: 'INPUT_NOT_FOUND',
      fatal: true,
      position: { file: join(directory, 'nope.tfrecord') },
    });
    const folder = await rejectionOf(collect(tfrecordSource({ paths: directory })));
    expect(folder).toMatchObject({ code: 'INPUT_NOT_FILE', fatal: true, position: { file: directory } });
    const glob = await rejectionOf(collect(tfrecordSource({ paths: join(directory, '*.tfrecord') })));
    expect(glob.code).toBe('INPUT_NOT_FOUND');
    expect(() => tfrecordSource({ paths: [] as never })).not.toThrow();
    expect(() => tfrecordSource({ paths: '' })).toThrow(
      /^tfrecordSource option paths: expected a non-empty string, got ""$/,
    );
    expect(() => tfrecordSource({ paths: 'x', compression: 'lz4' as never })).toThrow(
      /^tfrecordSource option compression: expected "auto", "none", "gzip" or "zlib", got "lz4"$/,
    );
    expect(() => tfrecordSource({ paths: 'x', maxRecordBytes: 2 ** 31 })).toThrow(
      /^tfrecordSource option maxRecordBytes: expected a whole number from 0 to 2147483647/,
    );
    expect(() => tfrecordSource({ paths: 'x', chunkBytes: 0 })).toThrow(
      /option chunkBytes: expected a whole/,
    );
    expect(() => tfrecordSource({ paths: 'x', highWaterMark: -1 })).toThrow(/option highWaterMark/);
    expect(() => tfrecordSource({ paths: 'x', chunkbytes: 1 } as never)).toThrow(
      /option chunkbytes: unknown option/,
    );
    expect(() => tfrecordSource({} as never)).toThrow(/option paths: expected a path or glob/);
  });

  it('reads lazily and releases its file handle when cancelled', async () => {
    const directory = await tempDir();
    const path = join(directory, 'many.tfrecord');
    await writeFile(path, framedFile(randomPayloads(2000, 1000, 6)));
    const before = (await readdir('/proc/self/fd')).length;
    const source = tfrecordSource({ paths: path, chunkBytes: 64 * 1024, highWaterMark: 1 });
    const reader = source.getReader();
    await reader.read();
    expect(reportOf(source)!.bytes).toBeLessThan(200 * 1024);
    expect((await readdir('/proc/self/fd')).length).toBeGreaterThan(before);
    await reader.cancel();
    expect((await readdir('/proc/self/fd')).length).toBe(before);
  });
});
