// Hostile inputs to the read side: each case bounded in time and memory (CI has 2 cores).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { framedFile, tempDir } from './__fixtures__/helpers.js';
import { frameRecord } from './frame-record.js';
import { countRecords, verifyTfrecord } from './read-examples.js';
import { tfrecordSource } from './tfrecord-source.js';
import { rejectionOf as failure } from '@tfpipe/core/testing';

const TINY_RECORDS = 300_000;

/** A file of `count` records of one byte each (17 bytes per frame). */
async function tinyRecordsFile(count: number): Promise<string> {
  const frame = frameRecord(Uint8Array.of(7));
  const bytes = new Uint8Array(frame.length * count);
  for (let index = 0; index < count; index++) bytes.set(frame, index * frame.length);
  const path = join(await tempDir(), 'tiny.tfrecord');
  await writeFile(path, bytes);
  return path;
}

describe('many tiny records (a 1 MiB chunk holds ~60,000 of them)', () => {
  it(`countRecords and verifyTfrecord take ${TINY_RECORDS} one-byte records within a hang guard of 20 s (was ~55 s)`, async () => {
    const path = await tinyRecordsFile(TINY_RECORDS);
    const started = performance.now();
    expect(await countRecords(path)).toBe(TINY_RECORDS);
    expect(await verifyTfrecord(path)).toMatchObject({ ok: true, records: TINY_RECORDS, lostBytes: 0 });
    // Before: the stream's queue took each whole chunk and was shifted per read (~100 µs a record here).
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it(`tfrecordSource streams ${TINY_RECORDS} one-byte records in order, within a hang guard of 20 s (was ~55 s)`, async () => {
    const path = await tinyRecordsFile(TINY_RECORDS);
    const started = performance.now();
    const reader = tfrecordSource({ paths: path }).getReader();
    let expected = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.recordIndex !== expected || value.byteOffset !== expected * 17) break;
      expected++;
    }
    expect(expected).toBe(TINY_RECORDS);
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 30_000);
});

describe('file names that are not UTF-8', () => {
  const linux = process.platform === 'linux';
  it.skipIf(!linux)(
    'a glob over files whose names are not UTF-8 fails naming one (was 3 of 6 counted, exit 0)',
    async () => {
      const directory = await tempDir();
      const shard = framedFile([new Uint8Array([1, 2, 3])]);
      for (const name of [[0x61], [0x62], [0x63], [0x64, 0xff], [0x65, 0xfe], [0x66, 0xe9]]) {
        await writeFile(
          Buffer.concat([Buffer.from(`${directory}/`), Buffer.from(name), Buffer.from('.tfrecord')]),
          shard,
        );
      }
      const error = await failure(countRecords(`${directory}/*.tfrecord`));
      expect(error.code).toBe('IO');
      expect(error.message).toBe(
        `cannot read a file whose name is not valid UTF-8 in ${directory}/d\\xFF.tfrecord: rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest)`,
      );
    },
  );
});
