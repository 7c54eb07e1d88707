// The dense fast path against the general parser: for random FixedLen specs and records (valid,
// wrong kinds and counts, missing features, out-of-range int64s, flipped and cut bytes), parsing with
// and without the fast path gives the same batch or the same error, with the batch's bytes lent or not.
import { bytes, emptyFeature, float, int64 } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedLen } from '../spec/feature-spec.js';
import type { Dtype } from '../spec/dtype.js';
import { DenseRecordReader } from './dense-record-reader.js';
import { BatchParser } from './parse-example.js';
import type { SpanRecord } from './parse-example.js';
import { field, serialize } from './tensor-test-helpers.js';

afterEach(() => vi.restoreAllMocks());

const DTYPES: Dtype[] = ['int64', 'int32', 'number', 'float32', 'string'];
const NAMES = ['a', 'bb', 'key4', 'float_0', 'category', 'a_longer_key_name'];

const anyFeature: fc.Arbitrary<Feature> = fc.oneof(
  fc.array(fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n), { maxLength: 3 }).map((values) => int64(...values)),
  fc.array(fc.float({ noNaN: true }), { maxLength: 3 }).map((values) => float(...values)),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }).map((values) => bytes(...values)),
  fc.constant(emptyFeature()),
);

/** Mostly the values the column asks for (int64s now and then out of an int32's or a number's range). */
function validFeature(dtype: Dtype, width: number): fc.Arbitrary<Feature> {
  const values = <T>(value: fc.Arbitrary<T>) => fc.array(value, { minLength: width, maxLength: width });
  const integers = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(BigInt) },
    { weight: 1, arbitrary: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n) },
  );
  if (dtype === 'float32') return values(fc.float({ noNaN: true })).map((list) => float(...list));
  if (dtype === 'string')
    // Now and then past 1 KiB: kept as a view of the batch's bytes when they are lent.
    return values(
      fc.oneof(
        { weight: 6, arbitrary: fc.uint8Array({ maxLength: 5 }) },
        { weight: 1, arbitrary: fc.uint8Array({ minLength: 1020, maxLength: 1030 }) },
      ),
    ).map((list) => bytes(...list));
  return values(integers).map((list) => int64(...list));
}

interface Column {
  readonly name: string;
  readonly dtype: Dtype;
  readonly width: number;
}

/** One record's features: each column's valid value, or now and then none, or another kind or count. */
function featuresArbitrary(columns: readonly Column[]): fc.Arbitrary<Record<string, Feature>> {
  return fc
    .tuple(
      ...columns.map(({ dtype, width }) =>
        fc.oneof(
          { weight: 12, arbitrary: validFeature(dtype, width) },
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: anyFeature },
        ),
      ),
      rarely(anyFeature, 3),
    )
    .map((values) => {
      const features: Record<string, Feature> = {};
      columns.forEach(({ name }, at) => {
        const value = values[at] as Feature | undefined;
        if (value !== undefined) features[name] = value;
      });
      const other = values[columns.length] as Feature | null;
      if (other !== null) features.other = other;
      return features;
    });
}

/** A record's map entries (the Features message without the Example around it). */
function entries(features: Record<string, Feature>): Uint8Array {
  const record = serialize(features);
  let at = 1;
  while (record[at]! >= 0x80) at++;
  return record.subarray(at + 1);
}

/** An Example whose Features message holds these entries, in this order (a key may repeat). */
function exampleOf(parts: readonly Uint8Array[]): Uint8Array {
  return field(0x0a, new Uint8Array(parts.flatMap((part) => [...part])));
}

/** `value` in one case of `odds`, else null. */
function rarely<T>(value: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: odds - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
}

const caseArbitrary = fc
  .uniqueArray(
    fc.record({
      name: fc.constantFrom(...NAMES),
      dtype: fc.constantFrom(...DTYPES),
      width: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: NAMES.length, selector: (column) => column.name },
  )
  .chain((columns) =>
    fc.record({
      columns: fc.constant(columns),
      records: fc.array(
        fc.record({
          features: featuresArbitrary(columns),
          again: rarely(featuresArbitrary(columns), 8),
          flip: rarely(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), 6),
          cut: rarely(fc.nat(), 10),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    }),
  );

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return { error: String(error), ...(error as object) };
  }
}

describe('DenseRecordReader: same results as the general parser', () => {
  it('for random FixedLen specs and damaged records, through parse and parseSpans', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ columns, records }) => {
        const spec = Object.fromEntries(
          columns.map(({ name, dtype, width }) => [name, fixedLen(width === 1 ? [] : [width], dtype)]),
        );
        const payloads = records.map(({ features, again, flip, cut }) => {
          // `again`: a second set of entries in the same Features message, repeating keys.
          const payload =
            again === null ? serialize(features) : exampleOf([entries(features), entries(again)]);
          if (flip !== null && payload.length > 0) payload[flip[0] % payload.length]! ^= flip[1];
          return cut === null ? payload : payload.subarray(0, cut % (payload.length + 1));
        });
        const arena = new Uint8Array(payloads.reduce((sum, payload) => sum + payload.length, 0));
        const ends: number[] = [];
        for (const payload of payloads) {
          arena.set(payload, ends.at(-1) ?? 0);
          ends.push((ends.at(-1) ?? 0) + payload.length);
        }
        const places = (): SpanRecord[] =>
          payloads.map((_, at) => ({
            data: new Uint8Array(0),
            file: 'f',
            recordIndex: at,
            byteOffset: at * 10,
          }));
        const run = (parser: BatchParser<typeof spec>) => [
          outcome(() => parser.parse(payloads)),
          outcome(() => parser.parseSpans(arena, ends, payloads.length, places())),
          outcome(() => parser.parseSpans(arena, ends, payloads.length, places(), true)),
        ];
        const fast = run(new BatchParser(spec));
        vi.spyOn(DenseRecordReader, 'of').mockReturnValue(undefined);
        const general = run(new BatchParser(spec));
        vi.restoreAllMocks();
        expect(fast).toEqual(general);
      }),
      { numRuns: 600 },
    );
  });
});
