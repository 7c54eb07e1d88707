// The one-thread parse leaves the data CRCs to a check of each whole batch (Node): against the web
// entry's reader, which checks each record's CRC as it reads it, the same batches and the same first
// error, wherever the damage lies in a batch and whatever follows it.
import { readFile, truncate, writeFile as writeBytes } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { bytes, example, float, int64 } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { tfrecordDataset as webDataset } from './tfrecord-dataset.js';
import type { TfrecordDatasetOptions } from './tfrecord-dataset.js';
import { fixedLen, varLen } from '../spec/feature-spec.js';
import { batchesOf } from '../parse/tensor-test-helpers.js';
import { range, temporaryFolder, writeExamples } from '../testing/write-records.js';

const SPEC = { id: fixedLen([], 'int64'), blob: fixedLen([], 'string'), scores: varLen('float32') };
const BATCH = 100;

/** Records of 20 bytes to 9 KiB: runs of short records with long ones (a native CRC call each) among them. */
function writeFile(folder: string, name: string, count: number): Promise<string> {
  return writeExamples(folder, name, range(0, count), (id) =>
    example({
      id: int64(id),
      blob: bytes('z'.repeat(id % 97 === 0 ? 9000 : id % 300)),
      scores: float(...range(0, id % 4)),
    }),
  );
}

interface Pass {
  batches: unknown[];
  error: unknown;
}

async function pass(batches: AsyncIterable<unknown>): Promise<Pass> {
  const out: unknown[] = [];
  try {
    for await (const batch of batches) out.push(batch);
  } catch (error) {
    return { batches: out, error };
  }
  return { batches: out, error: undefined };
}

/** The Node entry's one-thread parse and the web entry's (data CRCs checked per record by the reader). */
async function bothParses(path: string, options: TfrecordDatasetOptions = {}): Promise<[Pass, Pass]> {
  const blob = new Blob([await readFile(path)]);
  const here = await pass(tfrecordDataset(path, options).parse(SPEC, { batchSize: BATCH }));
  const named = new File([blob], path);
  const web = await pass(webDataset(named, options).parse(SPEC, { batchSize: BATCH }));
  return [here, web];
}

async function offsetsOf(path: string): Promise<number[]> {
  const offsets: number[] = [];
  for await (const record of tfrecordDataset(path)) offsets.push(record.byteOffset);
  return offsets;
}

describe('the one-thread parse checks data CRCs a batch at a time', () => {
  it('gives the batches of the per-record check, and its error at the first damaged record', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'crc.tfrecord', 1000);
    const offsets = await offsetsOf(path);
    const intact = await readFile(path);
    const [clean, cleanWeb] = await bothParses(path);
    expect(clean.error).toBeUndefined();
    expect(clean.batches).toHaveLength(10);
    expect(await batchesOf(tfrecordDataset(path).parse(SPEC, { batchSize: BATCH }))).toEqual(
      await batchesOf(webDataset(new Blob([intact])).parse(SPEC, { batchSize: BATCH })),
    );
    expect(cleanWeb.batches).toHaveLength(10);
    // First, middle and last of a batch, a long record (its own CRC call), the file's last record,
    // and two damaged records in one batch (the first is named).
    for (const damaged of [[0], [250], [299], [300], [388], [485, 470], [999]]) {
      const file = Uint8Array.from(intact);
      for (const record of damaged) file[offsets[record]! + 12 + 2]! ^= 0x10; // a payload byte
      await writeBytes(path, file);
      const first = Math.min(...damaged);
      const [here, web] = await bothParses(path);
      expect(here.error, `damaged ${damaged.join(', ')}`).toMatchObject({
        code: 'RECORD_CRC',
        stage: 'tfrecordDataset',
        reason: 'data CRC mismatch',
        position: { file: path, recordIndex: first, byteOffset: offsets[first] },
      });
      expect((here.error as Error).message).toBe((web.error as Error).message);
      expect(here.batches).toHaveLength(Math.floor(first / BATCH));
      expect(web.batches).toHaveLength(Math.floor(first / BATCH));
    }
  });

  it('a damaged record before a truncated end, in the same unfinished batch, is still the error', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'cut.tfrecord', 950);
    const offsets = await offsetsOf(path);
    const file = await readFile(path);
    file[offsets[920]! + 20]! ^= 0x01;
    await writeBytes(path, file);
    await truncate(path, file.length - 5);
    const [here, web] = await bothParses(path);
    expect(here.error).toMatchObject({ code: 'RECORD_CRC', position: { recordIndex: 920 } });
    expect((here.error as Error).message).toBe((web.error as Error).message);
    expect(here.batches).toHaveLength(9);
    // With workers the unfinished batch never reaches one: this thread checks it before the truncation.
    const threads = await pass(tfrecordDataset(path).parse(SPEC, { batchSize: BATCH, workers: 2 }));
    expect((threads.error as Error).message).toBe((web.error as Error).message);
    expect(threads.batches).toHaveLength(9);
    // A length CRC that fails after it (the reader's own error, raised while reading): the same.
    const header = Uint8Array.from(file.subarray(0, offsets[940]));
    header[offsets[930]! + 9]! ^= 0xff;
    await writeBytes(path, header);
    const [again, againWeb] = await bothParses(path);
    expect(again.error).toMatchObject({ code: 'RECORD_CRC', position: { recordIndex: 920 } });
    expect((again.error as Error).message).toBe((againWeb.error as Error).message);
  });

  it('names the record by its place in the whole file in a record shard, and in a gzip file', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'shard.tfrecord', 600);
    const offsets = await offsetsOf(path);
    const file = await readFile(path);
    file[offsets[444]! + 30]! ^= 0x20;
    await writeBytes(path, file);
    const shard = await pass(
      tfrecordDataset(path).shard({ index: 1, count: 2, by: 'record' }).parse(SPEC, { batchSize: BATCH }),
    );
    expect(shard.error).toMatchObject({
      code: 'RECORD_CRC',
      position: { file: path, recordIndex: 444, byteOffset: offsets[444] },
    });
    expect(shard.batches).toHaveLength(1); // records 300 to 399
    const zipped = `${path}.gz`;
    await writeBytes(zipped, gzipSync(file));
    const [here, web] = await bothParses(zipped);
    expect(here.error).toMatchObject({
      code: 'RECORD_CRC',
      position: { file: zipped, recordIndex: 444, byteOffset: offsets[444] },
    });
    expect((here.error as Error).message).toBe((web.error as Error).message);
    expect(here.batches).toHaveLength(4);
  });

  it("under onError: 'skip' each record is still checked as it is read: the same batches and skips", async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'skip.tfrecord', 700);
    const offsets = await offsetsOf(path);
    const file = await readFile(path);
    for (const record of [5, 150, 151, 699]) file[offsets[record]! + 12 + 4]! ^= 0x08;
    await writeBytes(path, file);
    const dataset = tfrecordDataset(path, { onError: 'skip' }).parse(SPEC, { batchSize: BATCH });
    const web = webDataset(new File([file], path), { onError: 'skip' }).parse(SPEC, { batchSize: BATCH });
    const batches = await batchesOf(dataset);
    expect(batches).toEqual(await batchesOf(web));
    let rows = 0;
    for await (const batch of tfrecordDataset(path, { onError: 'skip' }).parse(SPEC, { batchSize: BATCH }))
      rows += batch.id.shape[0]!;
    expect(rows).toBe(696);
    // Records 150 and 151 lie in one lost region: three skips, each reported as the reader reports it.
    expect(dataset.report().skipped).toBe(3);
    expect(dataset.report().skipped).toBe(web.report().skipped);
    expect(dataset.report().details).toEqual(web.report().details);
  });
});
