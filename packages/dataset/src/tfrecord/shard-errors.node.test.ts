// Sharding over real files with and without `.idx` index files, and corrupt inputs under
// onError 'fail' and 'skip' with their exact positions (also inside a shard's byte range).
import { readFile, stat, writeFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { describe, expect, it } from 'vitest';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { idOf, ids, range, temporaryFolder, writeRecords } from '../testing/write-records.js';

async function threeFiles(index: boolean): Promise<string[]> {
  const folder = await temporaryFolder();
  return [
    await writeRecords(folder, 'a.tfrecord', range(0, 7), { index }),
    await writeRecords(folder, 'b.tfrecord', range(100, 101), { index }),
    await writeRecords(folder, 'c.tfrecord', range(200, 212), { index }),
  ];
}

const ALL = [...range(0, 7), 100, ...range(200, 212)];

describe('shard', () => {
  it('by record with .idx files: each record exactly once per epoch, each shard one contiguous run, only its bytes read', async () => {
    const files = await threeFiles(true);
    const totalBytes = (await Promise.all(files.map((file) => stat(file)))).reduce(
      (sum, file) => sum + file.size,
      0,
    );
    for (const count of [1, 2, 3, 5, 20, 25]) {
      const shards = range(0, count).map((index) =>
        tfrecordDataset(files).shard({ index, count, by: 'record' }),
      );
      const epochs = await Promise.all(shards.map((shard) => ids(shard.repeat(2))));
      const perEpoch = epochs.map((both) => [both.slice(0, both.length / 2), both.slice(both.length / 2)]);
      for (const epoch of [0, 1]) expect(perEpoch.flatMap((shard) => shard[epoch]!)).toEqual(ALL);
      for (const [index, [first]] of perEpoch.entries()) {
        const low = Math.floor((index * ALL.length) / count);
        expect(first).toEqual(ALL.slice(low, Math.floor(((index + 1) * ALL.length) / count)));
      }
      const readBytes = shards.reduce((sum, shard) => sum + (shard.report().bytes ?? 0), 0);
      expect(readBytes).toBe(totalBytes * 2);
    }
  });

  it('by record keeps each record its own file position in a range', async () => {
    const files = await threeFiles(true);
    const records: TfRecord[] = [];
    for await (const record of tfrecordDataset(files).shard({ index: 1, count: 2, by: 'record' }))
      records.push(record);
    const whole: TfRecord[] = [];
    for await (const record of tfrecordDataset(files)) whole.push(record);
    expect(records.map(({ file, recordIndex, byteOffset }) => ({ file, recordIndex, byteOffset }))).toEqual(
      whole.slice(10).map(({ file, recordIndex, byteOffset }) => ({ file, recordIndex, byteOffset })),
    );
  });

  it('by record without an index for every file: every count-th record, still exactly once', async () => {
    const files = await threeFiles(false);
    const shards = await Promise.all(
      range(0, 3).map((index) => ids(tfrecordDataset(files).shard({ index, count: 3 }))),
    );
    expect(shards[1]).toEqual(ALL.filter((_, position) => position % 3 === 1));
    expect(shards.flat().sort((a, b) => a - b)).toEqual(ALL);
  });

  it('by file: whole files, file i to shard i % count; shard before shuffle keeps shards disjoint', async () => {
    const files = await threeFiles(false);
    expect(await ids(tfrecordDataset(files).shard({ index: 0, count: 2, by: 'file' }))).toEqual([
      ...range(0, 7),
      ...range(200, 212),
    ]);
    const shuffled = await ids(
      tfrecordDataset(files).shard({ index: 1, count: 2, by: 'file' }).shuffle(100, { seed: 1 }),
    );
    expect(shuffled).toEqual([100]);
    expect(() => tfrecordDataset(files).shard({ index: 0, count: 2 }).shard({ index: 0, count: 2 })).toThrow(
      /already sharded/,
    );
  });

  it('an index that does not tile its file fails with INPUT_CHANGED naming the line', async () => {
    const [a] = await threeFiles(true);
    const lines = (await readFile(`${a!}.idx`, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace(/^\d+/, (offset) => String(Number(offset) + 1));
    await writeFile(`${a!}.idx`, lines.join('\n'));
    await expect(ids(tfrecordDataset(a!).shard({ index: 0, count: 2 }))).rejects.toMatchObject({
      code: 'INPUT_CHANGED',
      position: { file: `${a!}.idx`, line: 3 },
    });
  });
});

/** Flips a byte inside record `record`'s payload; returns that record's frame offset. */
async function corrupt(path: string, record: number): Promise<{ offset: number; size: number }> {
  const lines = (await readFile(`${path}.idx`, 'utf8')).trim().split('\n');
  const [offset, size] = lines[record]!.split(' ').map(Number) as [number, number];
  const bytes = await readFile(path);
  bytes[offset + 14] = bytes[offset + 14]! ^ 0xff;
  await writeFile(path, bytes);
  return { offset, size };
}

describe('corrupt input', () => {
  it("onError 'fail': one RECORD_CRC error with file, record index and byte offset", async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'bad.tfrecord', range(0, 20), { index: true });
    const { offset } = await corrupt(path, 13);
    const seen: number[] = [];
    const error = await (async () => {
      for await (const record of tfrecordDataset(path)) seen.push(idOf(record));
    })().catch((caught: unknown) => caught);
    expect(TfpipeError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'RECORD_CRC',
      reason: 'data CRC mismatch',
      position: { file: path, recordIndex: 13, byteOffset: offset },
    });
    // As with tfrecordSource, the records of the read chunk that holds the damage are not handed out.
    expect(seen).toEqual(range(0, seen.length));
    expect(seen.length).toBeLessThan(13);
  });

  it("onError 'skip': the other records, and the lost range reported as tfrecordSource reports it", async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'bad.tfrecord', range(0, 20), { index: true });
    const { offset, size } = await corrupt(path, 13);
    const skipped: TfpipeError[] = [];
    const dataset = tfrecordDataset(path, { onError: 'skip', onSkip: (error) => skipped.push(error) });
    expect(await ids(dataset)).toEqual([...range(0, 13), ...range(14, 20)]);
    const report = dataset.report();
    expect(report).toMatchObject({ records: 19, skipped: 1, details: { lostRegions: 1, lostBytes: size } });
    expect((report.details as { lost: unknown[] }).lost).toEqual([
      {
        file: path,
        start: offset,
        end: offset + size,
        bytes: size,
        code: 'RECORD_CRC',
        reason: 'data CRC mismatch',
        records: 1,
      },
    ]);
    expect(skipped[0]!.position).toMatchObject({ recordIndex: 13, byteOffset: offset });
  });

  it('inside a shard range, errors and lost ranges carry the whole file’s positions', async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'bad.tfrecord', range(0, 20), { index: true });
    const { offset, size } = await corrupt(path, 13);
    const shard = (onError: 'fail' | 'skip') =>
      tfrecordDataset(path, { onError }).shard({ index: 1, count: 2 });
    await expect(ids(shard('fail'))).rejects.toMatchObject({
      code: 'RECORD_CRC',
      position: { recordIndex: 13, byteOffset: offset },
    });
    const skipping = shard('skip');
    expect(await ids(skipping)).toEqual([...range(10, 13), ...range(14, 20)]);
    expect((skipping.report().details as { lost: unknown[] }).lost).toEqual([
      expect.objectContaining({ start: offset, end: offset + size, records: 1 }),
    ]);
  });

  it('a truncated last record: RECORD_TRUNCATED at its offset; gzip cut short: DECOMPRESS after every whole record', async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'cut.tfrecord', range(0, 5), { index: true });
    const lines = (await readFile(`${path}.idx`, 'utf8')).trim().split('\n');
    const last = Number(lines[4]!.split(' ')[0]);
    const bytes = await readFile(path);
    await writeFile(path, bytes.subarray(0, bytes.length - 3));
    await expect(ids(tfrecordDataset(path))).rejects.toMatchObject({
      code: 'RECORD_TRUNCATED',
      position: { recordIndex: 4, byteOffset: last },
    });
    const gz = await writeRecords(folder, 'cut.tfrecord.gz', range(0, 500), { compression: 'gzip' });
    const compressed = await readFile(gz);
    await writeFile(gz, compressed.subarray(0, compressed.length - 40));
    const skipping = tfrecordDataset(gz, { onError: 'skip' });
    const read = await ids(skipping);
    expect(read).toEqual(range(0, read.length));
    expect(read.length).toBeGreaterThan(400);
    expect(skipping.report().skipped).toBeGreaterThanOrEqual(1);
    await expect(ids(tfrecordDataset(gz))).rejects.toMatchObject({
      code: expect.stringMatching(/DECOMPRESS|RECORD_TRUNCATED/),
    });
  });
});
