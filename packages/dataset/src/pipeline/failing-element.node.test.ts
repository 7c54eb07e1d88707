// A step that fails on element K of a real TFRecord file: every operation hands out each element
// before K in its output order, then K's error with its position (tf.data's behaviour). Record K of
// each generated file holds its `id` as a float, so parsing it as int64 fails with FEATURE_TYPE.
import { readFile } from 'node:fs/promises';
import { example, float } from '@tfpipe/core';
import type { TfpipeError } from '@tfpipe/core';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { describe, expect, it } from 'vitest';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { parseExample } from '../parse/parse-example.js';
import { fixedLen } from '../spec/feature-spec.js';
import { drain, exampleOf, range, temporaryFolder, writeExamples } from '../testing/write-records.js';
import { fromArray } from './from-array.js';

const COUNT = 40;
const BAD = 23;
const SPEC = { id: fixedLen([], 'int64') } as const;
const parser = parseExample(SPEC);

interface FailingFile {
  readonly path: string;
  /** Each record's frame offset, from the `.idx` the writer put beside the file. */
  readonly offsets: readonly number[];
}

/** Writes Examples `ids`, the one at `bad` (an index into `ids`) with a float `id`, and a `.idx`. */
async function failingFile(name: string, ids: readonly number[], bad?: number): Promise<FailingFile> {
  const folder = await temporaryFolder();
  const path = await writeExamples(folder, name, ids, (id) =>
    bad !== undefined && id === ids[bad] ? example({ id: float(0.5) }) : exampleOf(id),
  );
  const index = await readFile(`${path}.idx`, 'utf8');
  const offsets = index
    .trim()
    .split('\n')
    .map((line) => Number(line.split(' ')[0]));
  return { path, offsets };
}

/** A map step: the record's `id`, parsed alone; the bad record throws. */
function idOfRecord(record: TfRecord): number {
  return Number(parser.parse([record]).id.data[0]);
}

/** Checks that `error` is the bad record's, named by feature, file, record index and byte offset. */
function expectBadRecord(error: TfpipeError | undefined, file: FailingFile, recordIndex: number): void {
  expect(error?.code).toBe('FEATURE_TYPE');
  expect(error?.message).toContain("Data types don't match");
  expect(error?.position).toMatchObject({
    field: 'id',
    file: file.path,
    recordIndex,
    byteOffset: file.offsets[recordIndex],
  });
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a step failing on element K hands out elements 0 … K-1, then the error', () => {
  it('map, parallel 1: a synchronous and an asynchronous step', async () => {
    const file = await failingFile('map.tfrecord', range(0, COUNT), BAD);
    const sync = await drain(tfrecordDataset(file.path).map(idOfRecord));
    expect(sync.elements).toEqual(range(0, BAD));
    expectBadRecord(sync.error, file, BAD);
    const async = await drain(
      tfrecordDataset(file.path).map(async (record) => {
        await tick();
        return idOfRecord(record);
      }),
    );
    expect(async.elements).toEqual(range(0, BAD));
    expectBadRecord(async.error, file, BAD);
  });

  it('map, parallel 4: order kept, the later elements already computed are not handed out', async () => {
    const file = await failingFile('parallel.tfrecord', range(0, COUNT), BAD);
    const finished: number[] = [];
    let laterDone: () => void = () => undefined;
    const later = new Promise<void>((resolve) => (laterDone = resolve));
    const dataset = tfrecordDataset(file.path).map(
      async (record, index) => {
        // The failing call settles only once the call three places after it has finished.
        if (index === BAD) await later;
        else await tick();
        const id = idOfRecord(record);
        finished.push(id);
        if (index === BAD + 3) laterDone();
        return id;
      },
      { parallel: 4 },
    );
    const outcome = await drain(dataset);
    expect(outcome.elements).toEqual(range(0, BAD));
    expectBadRecord(outcome.error, file, BAD);
    expect(finished).toEqual(expect.arrayContaining([BAD + 1, BAD + 2, BAD + 3]));
  });

  it('map, parallel 4: a synchronous throw hands out the calls still in flight before it first', async () => {
    const file = await failingFile('in-flight.tfrecord', range(0, COUNT), BAD);
    let inFlight = 0;
    let inFlightAtFailure = -1;
    const dataset = tfrecordDataset(file.path).map(
      (record, index) => {
        if (index === BAD) {
          inFlightAtFailure = inFlight;
          return idOfRecord(record);
        }
        inFlight++;
        return tick().then(() => {
          inFlight--;
          return idOfRecord(record);
        });
      },
      { parallel: 4 },
    );
    const outcome = await drain(dataset);
    expect(inFlightAtFailure).toBe(3);
    expect(outcome.elements).toEqual(range(0, BAD));
    expectBadRecord(outcome.error, file, BAD);
  });

  it('map, parallel 4, after a failing step: the calls started before the failure go out first', async () => {
    const file = await failingFile('after.tfrecord', range(0, COUNT), BAD);
    const outcome = await drain(
      tfrecordDataset(file.path)
        .map(idOfRecord)
        .map(
          async (id) => {
            await tick();
            return id * 10;
          },
          { parallel: 4 },
        ),
    );
    expect(outcome.elements).toEqual(range(0, BAD).map((id) => id * 10));
    expectBadRecord(outcome.error, file, BAD);
  });

  it('map: K = 0 hands out nothing, K = last hands out all the others; take(K) never reaches K', async () => {
    const first = await failingFile('first.tfrecord', range(0, COUNT), 0);
    const last = await failingFile('last.tfrecord', range(0, COUNT), COUNT - 1);
    for (const parallel of [1, 4]) {
      const none = await drain(tfrecordDataset(first.path).map(idOfRecord, { parallel }));
      expect(none.elements).toEqual([]);
      expectBadRecord(none.error, first, 0);
      const all = await drain(
        tfrecordDataset(last.path).map(
          async (record) => {
            await tick();
            return idOfRecord(record);
          },
          { parallel },
        ),
      );
      expect(all.elements).toEqual(range(0, COUNT - 1));
      expectBadRecord(all.error, last, COUNT - 1);
      const taken = await drain(
        tfrecordDataset(last.path)
          .map(idOfRecord, { parallel })
          .take(COUNT - 1),
      );
      expect(taken).toEqual({ elements: range(0, COUNT - 1) });
    }
  });

  it('filter: a failing predicate, and a filter after a failing map', async () => {
    const file = await failingFile('filter.tfrecord', range(0, COUNT), BAD);
    const kept = range(0, BAD).filter((id) => id % 3 !== 0);
    const failing = await drain(tfrecordDataset(file.path).filter((record) => idOfRecord(record) % 3 !== 0));
    expect(failing.elements.map(idOfRecord)).toEqual(kept);
    expectBadRecord(failing.error, file, BAD);
    const after = await drain(
      tfrecordDataset(file.path)
        .map(idOfRecord)
        .filter((id) => Promise.resolve(id % 3 !== 0)),
    );
    expect(after.elements).toEqual(kept);
    expectBadRecord(after.error, file, BAD);
  });

  it('batch and parse: the full batches before the failure; the batch it falls in is not handed out', async () => {
    const file = await failingFile('batch.tfrecord', range(0, COUNT), BAD);
    const batched = await drain(tfrecordDataset(file.path).map(idOfRecord).batch(5));
    expect(batched.elements).toEqual([range(0, 5), range(5, 10), range(10, 15), range(15, 20)]);
    expectBadRecord(batched.error, file, BAD);
    // parse after another operation batches the records, then parses each batch: the batch holding K fails.
    for (const dataset of [
      tfrecordDataset(file.path).take(Infinity).parse(SPEC, { batchSize: 5 }),
      tfrecordDataset(file.path).parse(SPEC, { batchSize: 5 }), // the fused path
      tfrecordDataset(file.path).parse(SPEC, { batchSize: 5, workers: 2 }),
    ]) {
      const parsed = await drain(dataset);
      expect(parsed.elements.map((batch) => Array.from(batch.id.data, Number))).toEqual([
        range(0, 5),
        range(5, 10),
        range(10, 15),
        range(15, 20),
      ]);
      expectBadRecord(parsed.error, file, BAD);
    }
  });

  it('shuffle: the elements it drew before K came in, as the same seeded shuffle of good data orders them', async () => {
    const file = await failingFile('shuffle.tfrecord', range(0, COUNT), BAD);
    const buffer = 8;
    const outcome = await drain(tfrecordDataset(file.path).map(idOfRecord).shuffle(buffer, { seed: 5 }));
    // A full buffer hands one element out per element coming in: K - buffer before K arrives.
    const clean = await drain(fromArray(range(0, COUNT)).shuffle(buffer, { seed: 5 }));
    expect(outcome.elements).toEqual(clean.elements.slice(0, BAD - buffer));
    expect(outcome.elements).not.toEqual(range(0, BAD - buffer));
    expectBadRecord(outcome.error, file, BAD);
  });

  it('interleave: every element before the failing input element in the cycle order', async () => {
    const good = await failingFile('good.tfrecord', range(0, 30));
    const bad = await failingFile('bad.tfrecord', range(100, 130), 11);
    const files = [good.path, bad.path];
    const outcome = await drain(
      fromArray(files).interleave((path) => tfrecordDataset(path).map(idOfRecord), {
        cycleLength: 2,
        blockLength: 2,
      }),
    );
    // Blocks of two in turn: 0 1 100 101 2 3 102 103 … 10 11 110, then record 11 of the bad file.
    const expected = range(0, 5).flatMap((block) => [
      ...range(2 * block, 2 * block + 2),
      ...range(100 + 2 * block, 100 + 2 * block + 2),
    ]);
    expect(outcome.elements).toEqual([...expected, 10, 11, 110]);
    expectBadRecord(outcome.error, bad, 11);

    const unordered = await drain(
      fromArray(files).interleave((path) => tfrecordDataset(path).map(idOfRecord), {
        cycleLength: 2,
        deterministic: false,
      }),
    );
    const fromGood = unordered.elements.filter((id) => id < 100);
    expect(unordered.elements.filter((id) => id >= 100)).toEqual(range(100, 111));
    expect(fromGood).toEqual(range(0, fromGood.length));
    expectBadRecord(unordered.error, bad, 11);
  });

  it('prefetch: what it read ahead before the failure, then the error', async () => {
    const file = await failingFile('prefetch.tfrecord', range(0, COUNT), BAD);
    for (const elements of [1, 3, 100]) {
      const outcome = await drain(tfrecordDataset(file.path).map(idOfRecord).prefetch(elements));
      expect(outcome.elements).toEqual(range(0, BAD));
      expectBadRecord(outcome.error, file, BAD);
    }
    const parsed = await drain(tfrecordDataset(file.path).parse(SPEC, { batchSize: 4 }).prefetch(2));
    expect(parsed.elements.flatMap((batch) => Array.from(batch.id.data, Number))).toEqual(range(0, 20));
    expectBadRecord(parsed.error, file, BAD);
  });

  it('the ReadableStream side reads the same elements, then errors with the same error', async () => {
    const file = await failingFile('stream.tfrecord', range(0, COUNT), BAD);
    const reader = tfrecordDataset(file.path).map(idOfRecord, { parallel: 2 }).getReader();
    const elements: number[] = [];
    let error: TfpipeError | undefined;
    try {
      for (let result = await reader.read(); result.done !== true; result = await reader.read())
        elements.push(result.value);
    } catch (caught) {
      error = caught as TfpipeError;
    }
    expect(elements).toEqual(range(0, BAD));
    expectBadRecord(error, file, BAD);
  });
});
