// The fused parse (payloads straight from the read buffer into the batch) against the record-by-record
// parse of the same files: files larger than a 1 MiB read so records straddle reads, batches that
// span files, shard ranges, and error positions.
import { bytes, example, float, int64 } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
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
