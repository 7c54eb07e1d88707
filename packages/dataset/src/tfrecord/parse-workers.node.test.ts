// parse(spec, { workers }) against the parse on this thread: the same batches (in order, or all of them
// once with deterministic: false), the same errors, and a worker thread that dies mid-batch failing
// the pass with the file and records it held instead of hanging it.
import { readFile, truncate, writeFile as writeBytes } from 'node:fs/promises';
import { bytes, example, float, int64 } from '@tfpipe/core';
import { TfpipeError } from '@tfpipe/core';
import type { Transferable } from 'node:worker_threads';
import type * as WorkerThreads from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { tfrecordDataset as webDataset } from './tfrecord-dataset.js';
import { fixedLen, ragged, varLen } from '../spec/feature-spec.js';
import { batchesOf } from '../parse/tensor-test-helpers.js';
import { range, temporaryFolder, writeExamples } from '../testing/write-records.js';
import { batchPosition } from '../batch-positions.js';

const crash = vi.hoisted(() => ({ afterMessages: -1 }));

// A Worker that, when a test asks, is terminated on receiving its nth batch: a real thread exit
// while it holds work, as an out-of-memory abort or a native crash would end it.
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof WorkerThreads>();
  class CrashingWorker extends real.Worker {
    #messages = 0;
    override postMessage(message: unknown, transfer?: readonly Transferable[]): void {
      // Terminated before the batch is posted: the thread never answers it, whatever the machine's load.
      if (crash.afterMessages >= 0 && ++this.#messages > crash.afterMessages) void this.terminate();
      super.postMessage(message, transfer);
    }
  }
  return { ...real, Worker: CrashingWorker };
});

afterEach(() => {
  crash.afterMessages = -1;
});

const SPEC = {
  id: fixedLen([], 'int64'),
  blob: fixedLen([], 'string'),
  pair: fixedLen([2], 'float32'),
  scores: varLen('float32'),
  parts: ragged('int64'),
  // String tensors that are not dense cross threads packed too.
  blobList: ragged('string', { valueKey: 'blob' }),
  blobSparse: varLen('string'),
};

function writeFile(folder: string, name: string, ids: readonly number[], bad?: number): Promise<string> {
  return writeExamples(folder, name, ids, (id) =>
    example({
      id: id === bad ? float(id) : int64(id),
      blob: bytes('y'.repeat(id % 2000)),
      pair: float(id, -id),
      scores: float(...range(0, id % 4)),
      parts: int64(...range(0, id % 3)),
      blobSparse: bytes(...range(0, id % 3).map((at) => `${id}-${at}`)),
    }),
  );
}

/** How many batches of 100 a pass gives before it fails, and its error. */
async function collect(path: string, workers: number): Promise<{ batches: number; error: unknown }> {
  let batches = 0;
  try {
    for await (const _ of tfrecordDataset(path).parse(SPEC, { batchSize: 100, workers })) batches++;
  } catch (error) {
    return { batches, error };
  }
  return { batches, error: undefined };
}

describe('parse with workers', () => {
  it('gives the batches of the parse on this thread, in order, across files, shards and interleaved reads', async () => {
    const folder = await temporaryFolder();
    const files = [
      await writeFile(folder, 'a.tfrecord', range(0, 3000)),
      await writeFile(folder, 'b.tfrecord', range(3000, 3001)),
      await writeFile(folder, 'c.tfrecord', range(4000, 5500)),
    ];
    const here = await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 100 }));
    expect(await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 100, workers: 2 }))).toEqual(here);
    expect(await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 100, workers: 3 }))).toEqual(here);
    for (const source of [
      tfrecordDataset(files, { numParallelReads: 2 }),
      tfrecordDataset(files).shard({ index: 1, count: 3 }),
    ])
      expect(await batchesOf(source.parse(SPEC, { batchSize: 64, workers: 2, dropRemainder: true }))).toEqual(
        await batchesOf(source.parse(SPEC, { batchSize: 64, dropRemainder: true })),
      );
    // Not deterministic: every batch exactly once, in any order.
    const loose = await batchesOf(
      tfrecordDataset(files).parse(SPEC, { batchSize: 100, workers: 2, deterministic: false }),
    );
    const key = (batch: unknown): string =>
      JSON.stringify(batch, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    expect(loose.map(key).sort()).toEqual(here.map(key).sort());
  });

  it('a bad feature fails as on this thread, after every batch before it', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'bad.tfrecord', range(0, 2000), 1234);
    const here = await collect(path, 1);
    const there = await collect(path, 2);
    expect(there.batches).toBe(12);
    expect(here.batches).toBe(12);
    expect(TfpipeError.is(there.error)).toBe(true);
    expect(there.error).toMatchObject({
      code: 'FEATURE_TYPE',
      position: { file: path, recordIndex: 1234, field: 'id' },
    });
    expect((there.error as Error).message).toBe((here.error as Error).message);
  });

  it('a worker that dies while it holds a batch fails the pass naming the file and its records', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'crash.tfrecord', range(0, 1000));
    crash.afterMessages = 1;
    const error = await batchesOf(tfrecordDataset(path).parse(SPEC, { batchSize: 100, workers: 2 })).catch(
      (caught: unknown) => caught,
    );
    expect(TfpipeError.is(error)).toBe(true);
    const failure = error as TfpipeError;
    expect(failure.code).toBe('INTERNAL');
    expect(failure.position.file).toBe(path);
    // The thread killed held one batch or two: the earliest of them fails the pass.
    const held =
      /^records (\d+)–(\d+) of (.+) \(from byte (\d+)\): the parse worker exited \(code \d+\)$/.exec(
        failure.reason ?? '',
      );
    expect(held, failure.reason).not.toBeNull();
    const [, first, last, file, byte] = held!;
    expect(Number(first) % 100).toBe(0);
    expect(Number(last)).toBe(Number(first) + 99);
    expect(file).toBe(path);
    expect(failure.position).toEqual({ file: path, recordIndex: Number(first), byteOffset: Number(byte) });
    expect(failure.message).toContain(path);
  });

  it('takes empty files, batches of one, a consumer that stops early, and long byte strings', async () => {
    const folder = await temporaryFolder();
    const empty = await writeFile(folder, 'empty.tfrecord', []);
    const some = await writeFile(folder, 'some.tfrecord', [1999, 0, 1000, 7, 1500]);
    expect(await batchesOf(tfrecordDataset(empty).parse(SPEC, { batchSize: 8, workers: 2 }))).toEqual([]);
    const files = [empty, some, empty];
    expect(await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 1, workers: 2 }))).toEqual(
      await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 1 })),
    );
    expect(await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 2, workers: 2 }).take(1))).toEqual(
      (await batchesOf(tfrecordDataset(files).parse(SPEC, { batchSize: 2 }))).slice(0, 1),
    );
    const dense = { id: fixedLen([], 'int64'), blob: fixedLen([], 'string') };
    let batches = 0;
    for await (const batch of tfrecordDataset(some).parse(dense, { batchSize: 5, workers: 2 })) {
      batches++;
      const blobs = batch.blob.data;
      expect(blobs.map((blob) => blob.length)).toEqual([1999, 0, 1000, 7, 1500]);
      expect(blobs.map((blob) => blob.every((byte) => byte === 0x79))).toEqual([
        true,
        true,
        true,
        true,
        true,
      ]);
      // From a worker, a tensor's strings come back as views of one buffer (one transfer, no clone per value).
      expect(new Set(blobs.map((blob) => blob.buffer)).size).toBe(1);
      expect(blobs[0]!.buffer.byteLength).toBe(1999 + 1000 + 7 + 1500);
    }
    expect(batches).toBe(1);
  });

  it('checks every data CRC in the workers: a damaged payload fails with the reader’s error and position', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'crc.tfrecord', range(0, 2000));
    const offsets: number[] = [];
    for await (const record of tfrecordDataset(path)) offsets.push(record.byteOffset);
    const file = await readFile(path);
    file[offsets[1234]! + 12 + 3]! ^= 0x40; // a payload byte: the length CRC still holds
    await writeBytes(path, file);
    const here = await collect(path, 1);
    const there = await collect(path, 2);
    expect(here.batches).toBe(12);
    expect(there.batches).toBe(12);
    expect(there.error).toMatchObject({
      code: 'RECORD_CRC',
      stage: 'tfrecordDataset',
      reason: 'data CRC mismatch',
      position: { file: path, recordIndex: 1234, byteOffset: offsets[1234] },
    });
    expect((there.error as Error).message).toBe((here.error as Error).message);
    // In a record shard read from the .idx (a byte range of the file), the position is still the file's.
    const shardError = async (workers: number) =>
      batchesOf(
        tfrecordDataset(path)
          .shard({ index: 1, count: 2, by: 'record' })
          .parse(SPEC, { batchSize: 100, workers }),
      ).catch((caught: unknown) => caught);
    const shardThere = await shardError(2);
    expect(shardThere).toMatchObject({
      code: 'RECORD_CRC',
      position: { file: path, recordIndex: 1234, byteOffset: offsets[1234] },
    });
    expect((shardThere as Error).message).toBe(((await shardError(1)) as Error).message);
    // A truncated last record after it: the damaged record, earlier in the file, is still the error.
    await truncate(path, file.length - 3);
    const cut = await collect(path, 2);
    expect(cut.batches).toBe(12);
    expect(cut.error).toMatchObject({ code: 'RECORD_CRC', position: { recordIndex: 1234 } });
    // Under onError: 'skip' the record is dropped and counted, as on one thread.
    const skipping = (workers: number) =>
      tfrecordDataset(path, { onError: 'skip' }).parse(SPEC, { batchSize: 100, workers });
    const kept = skipping(2);
    expect(await batchesOf(kept)).toEqual(await batchesOf(skipping(1)));
    expect(kept.report().skipped).toBe(2);
  });

  it('a truncated last record fails after every batch read before it', async () => {
    const folder = await temporaryFolder();
    const path = await writeFile(folder, 'cut.tfrecord', range(0, 2000));
    await truncate(path, (await readFile(path)).length - 5);
    const here = await collect(path, 1);
    const there = await collect(path, 2);
    expect(here.batches).toBe(19);
    expect(there.batches).toBe(19);
    expect(there.error).toMatchObject({
      code: 'RECORD_TRUNCATED',
      position: { file: path, recordIndex: 1999 },
    });
    expect((there.error as Error).message).toBe((here.error as Error).message);
  });

  it("keeps each record's position on the batch, as on one thread", async () => {
    const folder = await temporaryFolder();
    const files = [
      await writeFile(folder, 'p.tfrecord', range(0, 150)),
      await writeFile(folder, 'q.tfrecord', range(150, 230)),
    ];
    const positions = async (workers: number) => {
      const out: unknown[] = [];
      for await (const batch of tfrecordDataset(files).parse(SPEC, { batchSize: 64, workers }))
        for (let index = 0; index < batch.id.shape[0]!; index++) out.push(batchPosition(batch, index));
      return out;
    };
    const here = await positions(1);
    expect(here).toHaveLength(230);
    expect(here[64 * 2 + 30]).toMatchObject({ file: files[1], recordIndex: 8 });
    expect(await positions(2)).toEqual(here);
  });

  it('rejects workers where there are no threads, and bad worker options', () => {
    const blob = new Blob([]);
    // The web entry's workers are Web Workers: Node has no global Worker.
    expect(() => webDataset(blob).parse(SPEC, { workers: 2 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: expect.stringContaining("in Node use '@tfpipe/dataset/node'"),
      }),
    );
    expect(() => webDataset(blob).parse(SPEC, { workers: 1 })).not.toThrow();
    expect(() =>
      tfrecordDataset(blob)
        .map((record) => record)
        .parse(SPEC, { workers: 2 }),
    ).toThrow(/workers > 1 parse straight from tfrecordDataset/);
    for (const workers of [0, 1.5, -1, Number.NaN, 257, 1e9])
      expect(() => tfrecordDataset(blob).parse(SPEC, { workers })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION' }),
      );
    const badSpec = { id: { type: 'fixedLength', dtype: 'int64' } };
    expect(() => tfrecordDataset(blob).parse(badSpec as never, { workers: 2 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', position: { field: 'id' } }),
    );
    expect(() =>
      tfrecordDataset(blob).parse(SPEC, { workers: 2, deterministic: 'no' as unknown as boolean }),
    ).toThrow(/deterministic must be a boolean/);
  });
});
