import { bytes, emptyFeature, float, int64, TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { fixedLen, fixedLenSequence, ragged, sparse, varLen } from '../spec/feature-spec.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import { parseExample } from './parse-example.js';
import { field, plain, serialize, sparseTriple } from './tensor-test-helpers.js';

function failure(run: () => unknown): TfpipeError {
  try {
    run();
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a TfpipeError');
}

const hex = (text: string): Uint8Array =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));

describe('parseExample: wire forms', () => {
  it('reads FORMAT.md known answers', () => {
    expect(
      plain(parseExample({ a: fixedLen([], 'int64') }).parse([hex('0a0c0a0a0a016112051a030a0101')]).a),
    ).toEqual([1]);
    expect(
      plain(
        parseExample({ x: fixedLen([], 'float32') }).parse([hex('0a0f0a0d0a0178120812060a040000c03f')]).x,
      ),
    ).toEqual([1.5]);
  });

  it('reads unpacked values, several packed chunks and unknown fields', () => {
    // Feature{int64_list: {value: 7 (unpacked), [8, 9] (packed), unknown field 2 = 5}}
    const feature = hex('1a08' + '0807' + '0a020809' + '1005');
    const entry = new Uint8Array([0x0a, 0x01, 0x6b, 0x12, feature.length, ...feature]);
    const features = new Uint8Array([0x0a, entry.length, ...entry, 0x18, 0x01]); // plus unknown field 3
    const record = new Uint8Array([0x0a, features.length, ...features, 0x15, 1, 2, 3, 4]); // plus an unknown fixed32
    expect(plain(parseExample({ k: varLen('int64') }).parse([record]).k)).toEqual([7, 8, 9]);
  });

  it('reads map entries laid out unlike the usual writers: value first, unknown fields, a long key', () => {
    const feature = hex('1a030a0107'); // int64_list [7]
    const valueFirst = new Uint8Array([0x12, feature.length, ...feature, 0x0a, 0x01, 0x6b]);
    const withUnknown = new Uint8Array([0x0a, 0x01, 0x6b, 0x18, 0x05, 0x12, feature.length, ...feature]);
    const longKey = 'k'.repeat(200);
    for (const [entry, name] of [
      [valueFirst, 'k'],
      [withUnknown, 'k'],
      [
        new Uint8Array([
          0x0a,
          0xc8,
          0x01,
          ...new TextEncoder().encode(longKey),
          0x12,
          feature.length,
          ...feature,
        ]),
        longKey,
      ],
    ] as const) {
      const record = field(0x0a, field(0x0a, entry));
      expect(plain(parseExample({ [name]: fixedLen([], 'int64') }).parse([record])[name]!)).toEqual([7]);
    }
  });

  it('takes the last entry of a key given twice, and the last kind of a Feature (a oneof)', () => {
    const first = serialize({ k: int64(1) });
    const second = serialize({ k: float(2.5) });
    const joined = new Uint8Array([...first, ...second]);
    expect(plain(parseExample({ k: fixedLen([], 'float32') }).parse([joined]).k)).toEqual([2.5]);
    // Feature{int64_list [1], float_list [2.5]}: the float list replaces the int64 one.
    const feature = hex('1a030a0101' + '12060a040000' + '2040');
    const entry = new Uint8Array([0x0a, 0x01, 0x6b, 0x12, feature.length, ...feature]);
    const record = new Uint8Array([0x0a, entry.length + 2, 0x0a, entry.length, ...entry]);
    expect(plain(parseExample({ k: fixedLen([], 'float32') }).parse([record]).k)).toEqual([2.5]);
  });

  it('keeps a feature named __proto__ as a plain output', () => {
    const batch = parseExample({ ['__proto__']: fixedLen([], 'int64') }).parse([
      serialize({ ['__proto__']: int64(4) }),
    ]);
    expect(Object.getPrototypeOf(batch)).toBe(null);
    expect(plain(batch['__proto__'] as never)).toEqual([4]);
  });
});

describe('parseExample: TensorFlow semantics', () => {
  it('fails on an explicit empty list even with a default (TF code; its docs suggest the default)', () => {
    const spec = { k: fixedLen([], 'int64', { default: 5 }) };
    expect(plain(parseExample(spec).parse([serialize({ k: emptyFeature() })]).k)).toEqual([5]);
    const error = failure(() => parseExample(spec).parse([serialize({ k: int64() })]));
    expect(error.detail).toBe(
      'Key: k, Index: 0.  Number of int64 values != expected.  Values size: 0 but output shape: []',
    );
  });

  it('gives each row its own copy of a byte-string default', () => {
    const parser = parseExample({ k: fixedLen([], 'string', { default: 'ab' }) });
    const first = parser.parse([serialize({}), serialize({})]);
    first.k.data[0]![0] = 0x7a;
    expect(plain(first.k)).toEqual(['zb', 'ab']);
    expect(plain(parser.parse([serialize({})]).k)).toEqual(['ab']);
  });

  it("names both kinds when a dense feature's kind is wrong", () => {
    const error = failure(() =>
      parseExample({ k: fixedLen([], 'int64') }).parse([serialize({ k: float(1) })]),
    );
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.detail).toBe(
      "Key: k, Index: 0.  Data types don't match. Data type: float but expected type: int64",
    );
  });

  it("names both kinds when a sparse or ragged feature's kind is wrong", () => {
    const record = serialize({ k: bytes('x') });
    for (const spec of [{ k: varLen('float32') }, { k: ragged('float32') }]) {
      expect(failure(() => parseExample(spec).parse([record])).detail).toBe(
        "Key: k, Index: 0.  Data types don't match. Expected type: float, Actual type: string",
      );
    }
  });

  it('fails when SparseFeature values and indices differ in number', () => {
    const spec = { sp: sparse({ indexKey: 'idx', valueKey: 'val', dtype: 'float32', size: 4 }) };
    const error = failure(() => parseExample(spec).parse([serialize({ val: float(1, 2), idx: int64(0) })]));
    expect(error.detail).toBe('Key: val, Index: 0.  sp has 2 values in val but 1 indices in idx');
  });

  it('reuses one feature for several outputs', () => {
    const batch = parseExample({ a: fixedLen([2], 'int64'), b: varLen('int32'), c: ragged('number') }).parse([
      serialize({ a: int64(1, 2) }),
    ]);
    expect(plain(batch.a)).toEqual([1, 2]);
    expect(sparseTriple(batch.b)).toEqual([[], [], [1, 0]]);
    expect(batch.c.data).toEqual(new Float64Array(0));
  });
});

describe('parseExample: int64 stays exact unless narrowed, and narrowing is checked', () => {
  const extremes = [-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n, 2n ** 53n + 1n];

  it('reads every int64 exactly into a BigInt64Array', () => {
    const batch = parseExample({ k: varLen('int64') }).parse([serialize({ k: int64(...extremes) })]);
    expect(batch.k.data).toEqual(BigInt64Array.from(extremes));
  });

  it.each([
    ['int32', [-(2n ** 31n), 2n ** 31n - 1n], [2n ** 31n, -(2n ** 31n) - 1n, 2n ** 32n]],
    ['number', [-(2n ** 53n) + 1n, 2n ** 53n - 1n], [2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n)]],
  ] as const)('%s: accepts the range limits, fails with INT64_RANGE beyond them', (dtype, fits, misfits) => {
    const parser = parseExample({ k: varLen(dtype) });
    expect(plain(parser.parse([serialize({ k: int64(...fits) })]).k)).toEqual(fits.map(Number));
    for (const value of misfits) {
      const error = failure(() => parser.parse([serialize({ k: int64(1) }), serialize({ k: int64(value) })]));
      expect(error.code).toBe('INT64_RANGE');
      expect(error.detail).toBe(`Key: k, Index: 1.  Value ${value} does not fit dtype '${dtype}'`);
      expect(error.position).toMatchObject({ recordIndex: 1, field: 'k' });
    }
  });

  it('checks defaults against the narrowed dtype', () => {
    expect(() => fixedLen([], 'int32', { default: 2 ** 31 })).toThrow(/does not fit dtype int32/);
    expect(() => fixedLen([], 'number', { default: 2n ** 53n })).toThrow(/does not fit dtype number/);
    expect(() => fixedLen([], 'int64', { default: 0.5 })).toThrow(/is not an integer/);
  });
});

describe('parseExample: errors carry the record position', () => {
  it('puts file, record index and the frame offset on a malformed record, the payload offset in the reason', () => {
    const good = serialize({ k: int64(1) });
    const truncated = good.subarray(0, good.length - 1);
    const records = [
      { data: good, file: 'train.tfrecord', recordIndex: 7, byteOffset: 100 },
      { data: truncated, file: 'train.tfrecord', recordIndex: 8, byteOffset: 130 },
    ];
    const error = failure(() => parseExample({ k: fixedLen([], 'int64') }).parse(records));
    expect(error.code).toBe('PROTO_DECODE');
    expect(error.position).toEqual({ file: 'train.tfrecord', recordIndex: 8, byteOffset: 130 });
    expect(error.message).toMatch(
      /^malformed Example at byte 130 \(record 8\) of train\.tfrecord: .*of the record's payload\)$/,
    );
  });

  it('numbers bare records from the origin', () => {
    const error = failure(() =>
      parseExample({ k: fixedLen([], 'int64') }).parse([serialize({ k: int64(1) }), serialize({})], {
        file: 'a.tfrecord',
        firstRecordIndex: 40,
      }),
    );
    expect(error.position).toEqual({ file: 'a.tfrecord', recordIndex: 41, field: 'k' });
    expect(error.message).toBe(
      'Feature: k (data type: int64) is required but could not be found. at record 41 (field "k") of a.tfrecord',
    );
  });

  it('rejects a bad spec when compiled, naming the feature', () => {
    expect(() => parseExample({ k: { type: 'dense' } } as unknown as ExampleParseSpec)).toThrow(
      /feature k: expected a spec from fixedLen/,
    );
    expect(() => varLen('int16' as 'int64')).toThrow(/dtype must be one of/);
    expect(() => fixedLen([2], 'float32', { default: [1] })).toThrow(
      /default has 1 values, but its shape holds 2/,
    );
    expect(() =>
      fixedLenSequence([], 'string', { allowMissing: true, default: 3 as unknown as string }),
    ).toThrow(/neither a string nor a Uint8Array/);
  });
});
