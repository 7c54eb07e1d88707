// The reader generated per layout against the general parser: for records of one layout and records
// that leave it (another order, a key sharing a prefix, a missing, extra or repeated entry, another
// kind, packing or count, an int64 past 2^53), parsing with and without the fast path gives the same
// batch or the same error, and the generated reader takes the records of the layout it learned.
import { bytes, emptyFeature, float, int64, TfpipeError } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedLen } from '../spec/feature-spec.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { Dtype } from '../spec/dtype.js';
import { DenseRecordReader } from './dense-record-reader.js';
import { BatchParser } from './parse-example.js';
import type { SpanRecord } from './parse-example.js';
import { field, plain, serialize } from './tensor-test-helpers.js';

afterEach(() => vi.restoreAllMocks());

const encoder = new TextEncoder();

/** A varint's bytes. */
function varint(value: bigint): number[] {
  let rest = BigInt.asUintN(64, value);
  const out: number[] = [];
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

/** One map entry `key → Feature` with the Feature's bytes as given. */
function entry(key: string, feature: Uint8Array): Uint8Array {
  const body = new Uint8Array([...field(0x0a, encoder.encode(key)), ...field(0x12, feature)]);
  return field(0x0a, body);
}

/** An Int64List Feature whose values are each tagged (not packed), as protobuf allows. */
function unpackedInt64(...values: bigint[]): Uint8Array {
  return field(0x1a, new Uint8Array(values.flatMap((value) => [0x08, ...varint(value)])));
}

/** A FloatList Feature whose values are each tagged (not packed). */
function unpackedFloat(...values: number[]): Uint8Array {
  const list = values.flatMap((value) => [0x0d, ...new Uint8Array(new Float32Array([value]).buffer)]);
  return field(0x12, new Uint8Array(list));
}

/** An Example of these entries in this order (a key may repeat). */
function exampleOf(...entries: Uint8Array[]): Uint8Array {
  return field(0x0a, new Uint8Array(entries.flatMap((part) => [...part])));
}

/** The Feature bytes core writes for `feature` (its map entry's value). */
function featureBytes(key: string, feature: Feature): Uint8Array {
  const record = serialize({ [key]: feature });
  // 0a n | 0a m | 0a k key | 12 f feature
  let at = 1;
  while (record[at]! >= 0x80) at++;
  at++;
  at++; // the entry's tag
  while (record[at]! >= 0x80) at++;
  at++;
  at += 2 + record[at + 1]!; // the key
  at++; // the value's tag
  while (record[at]! >= 0x80) at++;
  return record.subarray(at + 1);
}

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return { error: String(error), ...(error as object) };
  }
}

/** A batch's payloads back to back, as `parseSpans` takes them (the arguments before `lend`). */
function spans(batch: readonly Uint8Array[]): [Uint8Array, number[], number, SpanRecord[]] {
  const arena = new Uint8Array(batch.reduce((sum, payload) => sum + payload.length, 0));
  const ends: number[] = [];
  for (const payload of batch) {
    arena.set(payload, ends.at(-1) ?? 0);
    ends.push((ends.at(-1) ?? 0) + payload.length);
  }
  const places = batch.map((_, at) => ({
    data: new Uint8Array(0),
    file: 'f',
    recordIndex: at,
    byteOffset: at * 10,
  }));
  return [arena, ends, batch.length, places];
}

/**
 * Parses the batches with the fast path (`parse` and, with a parser of its own, the fused path's
 * `parseSpans`) and without: the outcomes, and how many records the generated reader took in each.
 */
function bothWays<Spec extends ExampleParseSpec>(
  spec: Spec,
  batches: readonly (readonly Uint8Array[])[],
): { fast: unknown[]; general: unknown[]; generated: { parse: number; spans: number } } {
  const bind = vi.spyOn(DenseRecordReader.prototype, 'bind');
  const parser = new BatchParser(spec);
  const spansParser = new BatchParser(spec);
  const fast = batches.flatMap((batch) => {
    return [outcome(() => parser.parse(batch)), outcome(() => spansParser.parseSpans(...spans(batch)))];
  });
  // Each parser's reader, in the order they were first bound (a batch parsed by `parse`, then by `parseSpans`).
  const [reader, spansReader] = [...new Set(bind.mock.contexts as DenseRecordReader[])];
  const generated = { parse: reader?.generatedReads ?? 0, spans: spansReader?.generatedReads ?? 0 };
  vi.restoreAllMocks();
  vi.spyOn(DenseRecordReader, 'of').mockReturnValue(undefined);
  const general = batches.flatMap((batch) => {
    const parser2 = new BatchParser(spec);
    const again = outcome(() => parser2.parse(batch));
    return [again, again];
  });
  vi.restoreAllMocks();
  return { fast, general, generated };
}

/** Strips the positions (the general run's `parseSpans` stand-in is its `parse`). */
function values(outcomes: unknown[]): unknown[] {
  return outcomes.map((result) =>
    result !== null && typeof result === 'object' && 'error' in result
      ? {
          error:
            String((result as { code?: string }).code) + ' ' + String((result as { detail?: string }).detail),
        }
      : Object.fromEntries(
          Object.entries(result as Record<string, { data: ArrayLike<unknown>; shape: number[] }>).map(
            ([name, tensor]) => [name, { shape: tensor.shape, data: Array.from(tensor.data) }],
          ),
        ),
  );
}

const spec = {
  id: fixedLen([], 'int64'),
  small: fixedLen([2], 'int32'),
  score: fixedLen([3], 'float32'),
  name: fixedLen([], 'string'),
  big: fixedLen([], 'number'),
};

function row(index: number, order: readonly string[] = Object.keys(spec)): Uint8Array {
  const features: Record<string, Uint8Array> = {
    id: featureBytes('id', int64(BigInt(index) * 1_000_000_007n - 2n ** 62n)),
    small: featureBytes('small', int64(index, -index * 70_000)),
    score: featureBytes('score', float(index / 4, -1, 3e38)),
    name: featureBytes('name', bytes('n'.repeat(index % 200))),
    big: featureBytes('big', int64(2 ** 53 - 1 - index)),
  };
  return exampleOf(...order.map((key) => entry(key, features[key]!)));
}

describe('the generated reader', () => {
  it('takes every record of one layout after the first, with multi-byte lengths and int64s past 2^53', () => {
    const batch = Array.from({ length: 300 }, (_, index) => row(index));
    const { fast, general, generated } = bothWays(spec, [batch]);
    expect(values(fast)).toEqual(values(general));
    // Each path: the first record teaches the layout, 299 follow.
    expect(generated).toEqual({ parse: 299, spans: 299 });
    const batchOut = fast[0] as Record<string, { data: BigInt64Array }>;
    expect(batchOut.id!.data[299]).toBe(299n * 1_000_000_007n - 2n ** 62n);
  });

  it('follows a layout that changes mid-batch and between batches, falling back for the rest', () => {
    const reordered = ['name', 'id', 'small', 'score', 'big'];
    const first = [row(0), row(1), row(2, reordered), row(3, reordered), row(4)];
    const second = [row(5, reordered), row(6, reordered), row(7)];
    const { fast, general, generated } = bothWays(spec, [first, second]);
    expect(values(fast)).toEqual(values(general));
    // A record the generated reader misses teaches it its layout once it has missed more records than
    // it took since it learned. First batch: 0 learns, 1 hits, 2 (another order) goes to the loop, 3
    // teaches the new order, 4 the first again. Second: 5 teaches the new order, 6 hits, 7 loop.
    expect(generated).toEqual({ parse: 2, spans: 2 });
    // A batch that begins with an odd record moves on to the common layout at the next one.
    const oddFirst = [row(10, reordered), row(11), row(12), row(13), row(14)];
    expect(bothWays(spec, [oddFirst]).generated).toEqual({ parse: 3, spans: 3 });
    // A layout that served the batches before stays through a few odd records at a batch's start.
    const served = Array.from({ length: 40 }, (_, index) => row(index));
    const next = [row(40, reordered), row(41, reordered), row(42), row(43)];
    const kept = bothWays(spec, [served, next]);
    expect(values(kept.fast)).toEqual(values(kept.general));
    expect(kept.generated).toEqual({ parse: 41, spans: 41 });
  });

  it('checks every byte of a key: keys sharing a prefix, a key one byte off, an extra key', () => {
    const prefixSpec = { a: fixedLen([], 'int64'), ab: fixedLen([], 'int64'), abc: fixedLen([], 'int64') };
    const good = (value: number): Uint8Array =>
      exampleOf(
        entry('a', featureBytes('a', int64(value))),
        entry('ab', featureBytes('ab', int64(value + 1))),
        entry('abc', featureBytes('abc', int64(value + 2))),
      );
    const offByOne = exampleOf(
      entry('a', featureBytes('a', int64(1))),
      entry('ab', featureBytes('ab', int64(2))),
      entry('abd', featureBytes('abd', int64(3))),
    );
    const extra = exampleOf(
      entry('a', featureBytes('a', int64(1))),
      entry('ab', featureBytes('ab', int64(2))),
      entry('abcd', featureBytes('abcd', int64(9))),
      entry('abc', featureBytes('abc', int64(3))),
    );
    for (const odd of [offByOne, extra]) {
      const { fast, general, generated } = bothWays(prefixSpec, [[good(0), good(10), odd, good(20)]]);
      expect(values(fast)).toEqual(values(general));
      expect(generated.parse).toBeGreaterThan(0);
      expect(generated.spans).toBe(generated.parse);
    }
  });

  it('leaves missing, repeated, kindless, wrongly typed and wrongly counted features to the general parser', () => {
    const keys = Object.keys(spec);
    const base = (index: number) => row(index);
    const withEntries = (...entries: Uint8Array[]) => exampleOf(...entries);
    const entriesOf = (index: number) =>
      keys.map((key) => {
        const record = row(index, [key]);
        return record.subarray(record[1]! < 0x80 ? 2 : 3);
      });
    const odd = [
      withEntries(...entriesOf(1).slice(0, 4)), // big missing
      withEntries(...entriesOf(2), entriesOf(2)[0]!), // id repeated
      withEntries(...entriesOf(3).slice(0, 4), entry('big', emptyFeatureBytes())), // kindless
      withEntries(...entriesOf(4).slice(0, 4), entry('big', featureBytes('big', float(1)))), // wrong kind
      withEntries(...entriesOf(5).slice(0, 4), entry('big', featureBytes('big', int64(1, 2)))), // wrong count
      withEntries(...entriesOf(6).slice(0, 4), entry('big', featureBytes('big', int64(2n ** 60n)))), // not a safe number
      withEntries(...entriesOf(7).slice(0, 4), entry('big', featureBytes('big', int64()))), // empty list
      withEntries(
        entriesOf(8)[0]!,
        entry('small', featureBytes('small', int64(2 ** 31, 0))), // past an int32
        ...entriesOf(8).slice(2),
      ),
    ];
    for (const record of odd) {
      const { fast, general } = bothWays(spec, [[base(0), base(1), record, base(2)]]);
      expect(values(fast)).toEqual(values(general));
    }
    const withDefault = { ...spec, big: fixedLen([], 'number', { default: 5 }) };
    const { fast, general } = bothWays(withDefault, [[base(0), base(1), odd[0]!, odd[2]!, odd[6]!, base(2)]]);
    expect(values(fast)).toEqual(values(general));
  });

  it('reads unpacked numbers when the layout has them, and leaves packed ones now and then to the loop', () => {
    const both = { n: fixedLen([2], 'int64'), f: fixedLen([5], 'float32') };
    const unpacked = (value: number) =>
      exampleOf(
        entry('n', unpackedInt64(BigInt(value), -(2n ** 63n))),
        entry('f', unpackedFloat(value, 1, 2, 3, 4)),
      );
    const packed = (value: number) =>
      exampleOf(
        entry('n', featureBytes('n', int64(BigInt(value), 2n ** 63n - 1n))),
        entry('f', featureBytes('f', float(value, 1, 2, 3, 4))),
      );
    const { fast, general, generated } = bothWays(both, [
      [unpacked(1), unpacked(2), unpacked(3), packed(4), unpacked(5), packed(6), unpacked(7)],
    ]);
    expect(values(fast)).toEqual(values(general));
    // unpacked(1) teaches the layout, the other unpacked ones hit it; the packed ones go to the loop.
    expect(generated).toEqual({ parse: 4, spans: 4 });
  });

  it('reads thousands of features with the loop (no generated code above the limit)', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 3000 }, (_, at) => [
        `feature_${String(at).padStart(4, '0')}`,
        fixedLen([], 'int64'),
      ]),
    );
    const record = (value: number) =>
      exampleOf(...Object.keys(wide).map((key, at) => entry(key, featureBytes(key, int64(value + at)))));
    const { fast, general, generated } = bothWays(wide, [[record(0), record(1), record(2)]]);
    expect(values(fast)).toEqual(values(general));
    expect(generated).toEqual({ parse: 0, spans: 0 });
    expect(plain((fast[0] as Record<string, never>).feature_2999!)).toEqual([2999, 3000, 3001]);
  });

  it('keeps every float32 bit pattern (NaN payloads, -0, subnormals) in each way it stores floats', () => {
    const floatSpec = {
      three: fixedLen([3], 'float32'), // stored in line
      eight: fixedLen([8], 'float32'), // a loop of word stores
      twenty: fixedLen([20], 'float32'), // one byte copy
      loose: fixedLen([2], 'float32'), // unpacked, each value tagged
    };
    const patterns = [
      0x7fc00001,
      0xffa00000 | 0,
      0x80000000 | 0,
      0x00000001,
      0x3f800000,
      0x7f800000,
      0xff7fffff | 0,
    ];
    const floatsOf = (count: number, seed: number): Float32Array =>
      new Float32Array(
        Int32Array.from({ length: count }, (_, at) => patterns[(at + seed) % patterns.length]!).buffer,
      );
    const record = (seed: number): Uint8Array => {
      const packedEntry = (key: string, count: number) => {
        const raw = new Uint8Array(floatsOf(count, seed).buffer);
        return entry(key, field(0x12, field(0x0a, raw)));
      };
      // Unpacked: each value tagged, its bytes as they are (a JS number would quiet a signalling NaN).
      const loose = new Uint8Array(floatsOf(2, seed).buffer);
      const tagged = new Uint8Array([0x0d, ...loose.subarray(0, 4), 0x0d, ...loose.subarray(4)]);
      return exampleOf(
        packedEntry('three', 3),
        packedEntry('eight', 8),
        packedEntry('twenty', 20),
        entry('loose', field(0x12, tagged)),
      );
    };
    const batch = Array.from({ length: 5 }, (_, seed) => record(seed));
    const { fast, generated } = bothWays(floatSpec, [batch]);
    expect(generated).toEqual({ parse: 4, spans: 4 });
    for (const result of fast) {
      const tensors = result as Record<string, { data: Float32Array }>;
      for (const [name, count] of [
        ['three', 3],
        ['eight', 8],
        ['twenty', 20],
        ['loose', 2],
      ] as const) {
        const words = new Int32Array(tensors[name]!.data.buffer, tensors[name]!.data.byteOffset, count * 5);
        const expected = Array.from({ length: 5 }, (_, seed) => [
          ...new Int32Array(floatsOf(count, seed).buffer),
        ]).flat();
        expect([...words]).toEqual(expected);
      }
    }
  });

  it('lets parsers take turns with the thread’s string blocks: each batch keeps its strings and its lent flag', () => {
    const textSpec = { id: fixedLen([], 'int64'), name: fixedLen([], 'string') };
    const record = (id: number, name: string) =>
      exampleOf(entry('id', featureBytes('id', int64(id))), entry('name', featureBytes('name', bytes(name))));
    const long = 'L'.repeat(2000);
    const first = new BatchParser(textSpec);
    const second = new BatchParser(textSpec);
    const firstBatch = first.parseSpans(...spans([record(1, 'a'), record(2, long), record(3, 'c')]), true);
    // The other parser's batch, lent too, but only short strings: copies in the shared blocks.
    const secondBatch = second.parseSpans(...spans([record(4, 'd'), record(5, 'e'), record(6, 'f')]), true);
    expect([first.lentBytes, second.lentBytes]).toEqual([true, false]);
    const text = (batch: { name: { data: Uint8Array[] } }) =>
      batch.name.data.map((value) => new TextDecoder().decode(value));
    expect(text(firstBatch)).toEqual(['a', long, 'c']);
    expect(text(secondBatch)).toEqual(['d', 'e', 'f']);
  });

  it('raises the general parser’s error and position for a record the generated reader refuses', () => {
    const records = [row(0), row(1), exampleOf(entry('id', featureBytes('id', bytes('x'))))];
    const parser = new BatchParser(spec);
    let error: unknown;
    try {
      parser.parse(records, { file: 'train.tfrecord' });
    } catch (caught) {
      error = caught;
    }
    expect(TfpipeError.is(error) && [error.code, error.position.recordIndex, error.position.file]).toEqual([
      'FEATURE_TYPE',
      2,
      'train.tfrecord',
    ]);
  });
});

function emptyFeatureBytes(): Uint8Array {
  return featureBytes('x', emptyFeature());
}

// Random specs and batches: most records share a layout, some change it.
const DTYPES: Dtype[] = ['int64', 'int32', 'number', 'float32', 'string'];
const NAMES = ['a', 'ab', 'abc', 'key4', 'float_0', 'a_longer_key_name'];

describe('the generated reader on random layouts', () => {
  it('gives the general parser’s batches', () => {
    const columnsArbitrary = fc.uniqueArray(
      fc.record({
        name: fc.constantFrom(...NAMES),
        dtype: fc.constantFrom(...DTYPES),
        width: fc.integer({ min: 1, max: 20 }),
      }),
      { minLength: 1, maxLength: NAMES.length, selector: (column) => column.name },
    );
    const valueArbitrary = (dtype: Dtype, width: number): fc.Arbitrary<Feature> => {
      const list = <T>(value: fc.Arbitrary<T>) => fc.array(value, { minLength: width, maxLength: width });
      if (dtype === 'float32') return list(fc.float({ noNaN: true })).map((items) => float(...items));
      if (dtype === 'string') return list(fc.uint8Array({ maxLength: 300 })).map((items) => bytes(...items));
      const integers = fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(BigInt) },
        { weight: 1, arbitrary: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n) },
      );
      return list(integers).map((items) => int64(...items));
    };
    fc.assert(
      fc.property(
        columnsArbitrary.chain((columns) =>
          fc.record({
            columns: fc.constant(columns),
            records: fc.array(
              fc.record({
                values: fc.tuple(...columns.map(({ dtype, width }) => valueArbitrary(dtype, width))),
                // Now and then: another order, one entry dropped, one repeated, an extra key.
                shuffle: fc.option(fc.nat(), { freq: 6 }),
                drop: fc.option(fc.nat(), { freq: 12 }),
                repeat: fc.option(fc.nat(), { freq: 12 }),
                extra: fc.option(fc.constantFrom('abcd', 'a_', 'zz'), { freq: 8 }),
              }),
              { minLength: 1, maxLength: 30 },
            ),
            batchSize: fc.integer({ min: 1, max: 12 }),
          }),
        ),
        ({ columns, records, batchSize }) => {
          const spec = Object.fromEntries(
            columns.map(({ name, dtype, width }) => [name, fixedLen(width === 1 ? [] : [width], dtype)]),
          );
          const payloads = records.map(({ values: features, shuffle, drop, repeat, extra }) => {
            let entries = columns.map(({ name }, at) => entry(name, featureBytes(name, features[at]!)));
            if (shuffle !== null && entries.length > 1) {
              const at = shuffle % entries.length;
              entries = [...entries.slice(at), ...entries.slice(0, at)];
            }
            if (drop !== null) entries.splice(drop % entries.length, 1);
            if (repeat !== null && entries.length > 0) entries.push(entries[repeat % entries.length]!);
            if (extra !== null) entries.splice(1, 0, entry(extra, featureBytes(extra, int64(7))));
            return exampleOf(...entries);
          });
          const batches: Uint8Array[][] = [];
          for (let at = 0; at < payloads.length; at += batchSize)
            batches.push(payloads.slice(at, at + batchSize));
          const { fast, general } = bothWays(spec, batches);
          expect(values(fast)).toEqual(values(general));
        },
      ),
      { numRuns: 300 },
    );
  });
});
