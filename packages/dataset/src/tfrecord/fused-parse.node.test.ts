// The fused parse (payloads straight from the read buffer into the batch) against the record-by-record
// parse of the same files: files larger than a 1 MiB read so records straddle reads, batches that
// span files, shard ranges, and error positions.
import { readFile, writeFile } from 'node:fs/promises';
import { bytes, emptyFeature, example, float, int64 } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import { describe, expect, it, vi } from 'vitest';
import { DenseRecordReader } from '../parse/dense-record-reader.js';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { fixedLen, varLen } from '../spec/feature-spec.js';
import { batchesOf } from '../parse/tensor-test-helpers.js';
import { range, temporaryFolder, writeExamples } from '../testing/write-records.js';

const SPEC = { id: fixedLen([], 'int64'), blob: fixedLen([], 'string'), scores: varLen('float32') };

function writeBig(folder: string, name: string, ids: readonly number[], bad?: number): Promise<string> {
  return writeExamples(folder, name, ids, (id) =>
    example({
      id: id === bad ? float(id) : int64(id),
      blob: bytes('x'.repeat(300 + (id % 97))),
      scores: float(...range(0, id % 3)),
    }),
  );
}

describe('the fused parse', () => {
  it('gives the same batches as parsing record objects, across reads, files and shard ranges', async () => {
    const folder = await temporaryFolder();
    const files = [
      await writeBig(folder, 'a.tfrecord', range(0, 4000)),
      await writeBig(folder, 'b.tfrecord', range(4000, 4003)),
      await writeBig(folder, 'c.tfrecord', range(5000, 8100)),
    ];
    for (const [batchSize, dropRemainder] of [
      [1000, false],
      [777, true],
    ] as const) {
      const fused = await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize, dropRemainder }));
      const unfused = await batchesOf(
        tfrecordDataset(files)
          .map((record) => record)
          .parse(SPEC, { batchSize, dropRemainder }),
      );
      expect(fused.length).toBe(dropRemainder ? Math.floor(7103 / batchSize) : Math.ceil(7103 / batchSize));
      expect(fused).toEqual(unfused);
    }
    const shard = tfrecordDataset(files).shard({ index: 1, count: 3 });
    expect(await batchesOf(shard.parse(SPEC, { batchSize: 500 }))).toEqual(
      await batchesOf(shard.map((record) => record).parse(SPEC, { batchSize: 500 })),
    );
  });

  it('a bad feature fails with the file, the record index and the byte offset of its record', async () => {
    const folder = await temporaryFolder();
    const path = await writeBig(folder, 'bad.tfrecord', range(0, 5000), 4321);
    const expected = { code: 'FEATURE_TYPE', position: { file: path, recordIndex: 4321, field: 'id' } };
    const fused = await batchesOf(tfrecordDataset(path).parse(SPEC, { batchSize: 64 })).catch(
      (error: unknown) => error,
    );
    const unfused = await batchesOf(
      tfrecordDataset(path)
        .map((record) => record)
        .parse(SPEC, { batchSize: 64 }),
    ).catch((error: unknown) => error);
    expect(fused).toMatchObject(expected);
    expect((fused as Error).message).toBe((unfused as Error).message);
    expect((fused as { position: { byteOffset: number } }).position.byteOffset).toBeGreaterThan(1024 * 1024);
  });

  it('byte strings over 1 KiB are views of their batch’s own bytes: kept batches keep them across reads and passes', async () => {
    const folder = await temporaryFolder();
    // Around the 1 KiB rule, and records larger than a 1 MiB read; each value's bytes its record's own.
    const sizes = [500, 1024, 1025, 5000, 70_000, 1_300_000];
    const blobOf = (id: number): Uint8Array =>
      Uint8Array.from(
        { length: sizes[id % sizes.length]! },
        (_, at) => (id * 131 + at * 7 + (at >> 9)) & 0xff,
      );
    const path = await writeExamples(folder, 'views.tfrecord', range(0, 30), (id) =>
      example({ id: int64(id), blob: bytes(blobOf(id)) }),
    );
    const dataset = tfrecordDataset(path).parse(
      { id: fixedLen([], 'int64'), blob: fixedLen([], 'string') },
      { batchSize: 4 },
    );
    // Two passes read side by side, and every batch of both kept until both have ended.
    const kept: { id: { data: BigInt64Array }; blob: { data: Uint8Array[] } }[] = [];
    const passes = [dataset[Symbol.asyncIterator](), dataset[Symbol.asyncIterator]()];
    for (let open = passes.length; open > 0;) {
      open = 0;
      for (const pass of passes) {
        const next = await pass.next();
        if (next.done !== true) {
          kept.push(next.value);
          open++;
        }
      }
    }
    expect(kept.length).toBe(2 * 8);
    const wrong: number[] = [];
    for (const batch of kept)
      batch.id.data.forEach((id, row) => {
        if (!Buffer.from(blobOf(Number(id))).equals(batch.blob.data[row]!)) wrong.push(Number(id));
      });
    expect(wrong).toEqual([]);
    // No array per long value: a batch's values over 1 KiB share one buffer, which no other batch uses.
    const buffers = kept.map(
      (batch) => new Set(batch.blob.data.filter((value) => value.length > 1024).map((value) => value.buffer)),
    );
    expect(buffers.map((set) => set.size)).toEqual(kept.map(() => 1));
    expect(new Set(buffers.flatMap((set) => [...set])).size).toBe(kept.length);
  });
});

// An all-`fixedLen` spec: the fused path reads records with the reader generated per layout, and falls
// back to the loop and the general parser for records of another layout. Every value is checked
// against what was written (not against another path of the same parser).
const DENSE = {
  id: fixedLen([], 'int64'),
  name: fixedLen([], 'string'),
  score: fixedLen([2], 'float32'),
  flag: fixedLen([], 'int32', { default: -1 }),
};

/** Record `id`'s features: the layout changes at 3,000 and now and then in between. */
function denseExample(id: number) {
  const features: Record<string, Feature> = {};
  const flag = id % 11 === 0 ? undefined : id % 13 === 0 ? emptyFeature() : int64(id % 5);
  const entries: [string, Feature | undefined][] = [
    ['id', int64(id)],
    ['name', bytes(`n${id}`)],
    ['score', float(id / 4, -id)],
    ['flag', flag],
  ];
  if (id >= 3000) entries.push(['zz', int64(3)]); // from here on, every record has one more key
  if (id % 7 === 0) entries.splice(1, 0, ['i', int64(1)]); // a key that is a prefix of another
  if (id % 17 === 0) entries.push(['id_', int64(2)]); // and one that extends it
  for (const [key, feature] of entries) if (feature !== undefined) features[key] = feature;
  return example(features);
}

/**
 * How many of ids 0 to 5002 the generated reader takes in batches of 1,000: the 3,386 records of the
 * common layouts (ids not divisible by 7, 11, 13 or 17) but 14: id 1, which teaches the first layout,
 * and 3,000 to 3,018's 13, which the reader misses while the old layout keeps its 16 hits and while it
 * learns the new one (3,016 and 3,017, both odd, teach first; then 3,018).
 */
const GENERATED_READS = 3372;

/** What the batches of these ids must hold. */
function denseExpected(ids: readonly number[], batchSize: number): unknown[] {
  const out: unknown[] = [];
  for (let at = 0; at < ids.length; at += batchSize) {
    const batch = ids.slice(at, at + batchSize);
    out.push({
      id: { shape: [batch.length], values: batch },
      name: { shape: [batch.length], values: batch.map((id) => `n${id}`) },
      score: { shape: [batch.length, 2], values: batch.flatMap((id) => [Math.fround(id / 4), -id]) },
      flag: {
        shape: [batch.length],
        values: batch.map((id) => (id % 11 === 0 || id % 13 === 0 ? -1 : id % 5)),
      },
    });
  }
  return out;
}

/** The file offset of each record's frame. */
async function frameOffsets(path: string): Promise<number[]> {
  const file = await readFile(path);
  const offsets: number[] = [];
  for (let at = 0; at < file.length; at += 16 + file.readUInt32LE(at)) offsets.push(at);
  return offsets;
}

describe('the fused parse with the generated reader', () => {
  it('reads layouts that change mid-file and mid-batch, defaults and kindless features, with one thread and with workers, pass after pass', async () => {
    const folder = await temporaryFolder();
    const files = [
      await writeExamples(folder, 'a.tfrecord', range(0, 5000), denseExample),
      await writeExamples(folder, 'b.tfrecord', range(5000, 5003), denseExample),
    ];
    const ids = range(0, 5003);
    for (const workers of [undefined, 2]) {
      for (let pass = 0; pass < 2; pass++) {
        const bind = vi.spyOn(DenseRecordReader.prototype, 'bind');
        const dataset = tfrecordDataset(files).parse(DENSE, {
          batchSize: 1000,
          ...(workers === undefined ? {} : { workers }),
        });
        expect(await batchesOf(dataset)).toEqual(denseExpected(ids, 1000));
        const readers = new Set(bind.mock.contexts as DenseRecordReader[]);
        const generated = [...readers].reduce((sum, reader) => sum + reader.generatedReads, 0);
        vi.restoreAllMocks();
        // On this thread, most records (those of the most common layout) go through the generated reader.
        if (workers === undefined) expect(generated).toBe(GENERATED_READS);
      }
    }
  });

  it("onError: 'skip' drops a damaged record and reads the rest; 'fail' names it", async () => {
    const folder = await temporaryFolder();
    const path = await writeExamples(folder, 'damaged.tfrecord', range(0, 4000), denseExample);
    const offsets = await frameOffsets(path);
    const file = await readFile(path);
    file[offsets[2500]! + 12 + 3]! ^= 0x40; // inside record 2500's payload: its data CRC fails
    await writeFile(path, file);
    const ids = range(0, 4000).filter((id) => id !== 2500);
    for (const workers of [undefined, 2]) {
      const extra = workers === undefined ? {} : { workers };
      const skipped = tfrecordDataset(path, { onError: 'skip' }).parse(DENSE, { batchSize: 512, ...extra });
      expect(await batchesOf(skipped)).toEqual(denseExpected(ids, 512));
      const failed = await batchesOf(tfrecordDataset(path).parse(DENSE, { batchSize: 512, ...extra })).catch(
        (error: unknown) => error,
      );
      expect(failed).toMatchObject({
        code: 'RECORD_CRC',
        position: { file: path, recordIndex: 2500, byteOffset: offsets[2500] },
      });
    }
  });
});
