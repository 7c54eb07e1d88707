// Hostile inputs to the read side: each case bounded in time and memory (CI has 2 cores).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/helpers.js';
import { frameRecord } from './frame-record.js';
import { countRecords, verifyTfrecord } from './read-examples.js';
import { tfrecordSource } from './tfrecord-source.js';

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
