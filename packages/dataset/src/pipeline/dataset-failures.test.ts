// Each operation, over sources cut into chunks of every size: a step failing on element K hands out
// exactly what precedes K in the output order, then K's error, unchanged. Web-standard.
import { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { arrayChunks } from './chunks.js';
import { Dataset } from './dataset.js';
import { fromArray } from './from-array.js';

const COUNT = 25;
const values = Array.from({ length: COUNT }, (_, at) => at);

/** The elements of a pass and the error that ended it. */
async function drain<T>(dataset: AsyncIterable<T>): Promise<{ elements: T[]; error?: unknown }> {
  const elements: T[] = [];
  try {
    for await (const element of dataset) elements.push(element);
  } catch (error) {
    return { elements, error };
  }
  return { elements };
}

/** `0 … COUNT-1` in chunks of `size`, through a map step that throws `failure` on element `bad`. */
function failing(size: number, bad: number, failure: TfpipeError): Dataset<number> {
  return new Dataset(() => arrayChunks(values, size)).map((value) => {
    if (value === bad) throw failure;
    return value;
  });
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** An input of the interleave below: the value, then the value + 0.5. */
const pair = (value: number): Dataset<number> => fromArray([value, value + 0.5]);

/** Each operation after the failing step, and what it hands out when its input K fails. */
const OPERATIONS: readonly {
  readonly name: string;
  readonly apply: (dataset: Dataset<number>) => Dataset<unknown>;
  readonly expected: (bad: number) => unknown[] | Promise<unknown[]>;
}[] = [
  { name: 'the failing map alone', apply: (dataset) => dataset, expected: (bad) => values.slice(0, bad) },
  {
    name: 'map, parallel 3, async',
    apply: (dataset) =>
      dataset.map(
        async (value) => {
          await tick();
          return -value;
        },
        { parallel: 3 },
      ),
    expected: (bad) => values.slice(0, bad).map((value) => -value),
  },
  {
    name: 'filter',
    apply: (dataset) => dataset.filter((value) => value % 2 === 1),
    expected: (bad) => values.slice(0, bad).filter((value) => value % 2 === 1),
  },
  {
    name: 'batch(4): the full batches only',
    apply: (dataset) => dataset.batch(4),
    expected: async (bad) => (await drain(fromArray(values.slice(0, bad - (bad % 4))).batch(4))).elements,
  },
  {
    name: 'shuffle(6): what it drew before K came in',
    apply: (dataset) => dataset.shuffle(6, { seed: 11 }),
    expected: async (bad) =>
      (await drain(fromArray(values).shuffle(6, { seed: 11 }))).elements.slice(0, Math.max(0, bad - 6)),
  },
  { name: 'prefetch(5)', apply: (dataset) => dataset.prefetch(5), expected: (bad) => values.slice(0, bad) },
  {
    name: 'interleave (two elements per input, three open)',
    apply: (dataset) => dataset.interleave(pair, { cycleLength: 3 }),
    // The cycle opens input K (and fails) after every element of the groups of three inputs before
    // K's group and the first element of each input before K in its group.
    expected: async (bad) =>
      (await drain(fromArray(values).interleave(pair, { cycleLength: 3 }))).elements.slice(
        0,
        6 * Math.floor(bad / 3) + (bad % 3),
      ),
  },
];

describe('a failing element hands out everything before it, then its error', () => {
  for (const operation of OPERATIONS) {
    it(`${operation.name}: any K, any chunk size`, async () => {
      for (const size of [1, 4, 7, 1024]) {
        for (const bad of [0, 1, 6, 7, 13, COUNT - 1]) {
          const failure = new TfpipeError('FEATURE_TYPE', `element ${bad}`, {
            position: { recordIndex: bad },
          });
          const outcome = await drain(operation.apply(failing(size, bad, failure)));
          expect({ size, bad, elements: outcome.elements }).toEqual({
            size,
            bad,
            elements: await operation.expected(bad),
          });
          expect(outcome.error).toBe(failure);
        }
      }
    });
  }

  it('map, parallel 3: a call that fails after the calls behind it finished drops them', async () => {
    for (const size of [1, 5, 1024]) {
      const finished: number[] = [];
      const failure = new TfpipeError('FEATURE_TYPE', 'element 9');
      const outcome = await drain(
        new Dataset(() => arrayChunks(values, size)).map(
          async (value) => {
            await tick();
            if (value === 9) {
              // Fails only once the two calls after it have finished.
              while (!finished.includes(11)) await tick();
              throw failure;
            }
            finished.push(value);
            return value;
          },
          { parallel: 3 },
        ),
      );
      expect(outcome.elements).toEqual(values.slice(0, 9));
      expect(outcome.error).toBe(failure);
      expect(finished).toEqual(expect.arrayContaining([10, 11]));
    }
  });

  it('map, parallel 4: a synchronous throw behind a call that fails later raises the earlier failure', async () => {
    for (const size of [1, 6, 1024]) {
      const earlier = new TfpipeError('FEATURE_TYPE', 'element 5');
      const later = new TfpipeError('FEATURE_TYPE', 'element 7');
      const outcome = await drain(
        new Dataset(() => arrayChunks(values, size)).map(
          (value) => {
            if (value === 7) throw later;
            return tick().then(() => {
              if (value === 5) throw earlier;
              return value;
            });
          },
          { parallel: 4 },
        ),
      );
      expect(outcome.elements).toEqual(values.slice(0, 5));
      expect(outcome.error).toBe(earlier);
    }
  });

  it('a long pass: 100 000 elements failing on the last, through map (parallel 8), batch and prefetch', async () => {
    const failure = new TfpipeError('FEATURE_TYPE', 'the last element');
    const outcome = await drain(
      fromArray(Array.from({ length: 100_000 }, (_, at) => at))
        .map((value) => (value === 99_999 ? Promise.reject(failure) : Promise.resolve(value)), {
          parallel: 8,
        })
        .batch(1000)
        .prefetch(3),
    );
    expect(outcome.elements).toHaveLength(99);
    expect(outcome.elements.flat()).toEqual(Array.from({ length: 99_000 }, (_, at) => at));
    expect(outcome.error).toBe(failure);
  });

  it('paddedBatch: a batch that fails to assemble goes out after the full batches before it', async () => {
    const arrays = values.map((value) => Int32Array.from({ length: value === 10 ? 9 : 2 }, () => value));
    for (const size of [1, 3, 1024]) {
      const outcome = await drain(
        new Dataset(() => arrayChunks(arrays, size)).paddedBatch(4, { paddedLength: 4 }),
      );
      expect(outcome.elements.map((batch) => Array.from(batch.data))).toEqual([
        [0, 0, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 3, 3, 0, 0],
        [4, 4, 0, 0, 5, 5, 0, 0, 6, 6, 0, 0, 7, 7, 0, 0],
      ]);
      expect((outcome.error as TfpipeError).code).toBe('FEATURE_TYPE');
      expect((outcome.error as TfpipeError).message).toContain(
        'element 2 has 9 values, more than paddedLength 4',
      );
    }
  });
});
