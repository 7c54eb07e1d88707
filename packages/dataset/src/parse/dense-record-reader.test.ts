import { bytes, float, int64, TfpipeError } from '@tfpipe/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedLen } from '../spec/feature-spec.js';
import { DenseRecordReader } from './dense-record-reader.js';
import { parseExample } from './parse-example.js';
import { plain, serialize } from './tensor-test-helpers.js';

afterEach(() => vi.restoreAllMocks());

describe('DenseRecordReader: the FixedLen fast path', () => {
  it('takes every record as core writes them: scalars and shapes of each dtype', () => {
    const read = vi.spyOn(DenseRecordReader.prototype, 'read');
    const spec = {
      id: fixedLen([], 'int64'),
      small: fixedLen([], 'int32'),
      big: fixedLen([], 'number'),
      pair: fixedLen([2], 'float32'),
      many: fixedLen([20], 'float32'),
      name: fixedLen([], 'string'),
    };
    const records = [-1, 0, 300, 2 ** 40].map((id) =>
      serialize({
        id: int64(id),
        small: int64(id % 1000),
        big: int64(id * 3),
        pair: float(1.5, -2),
        many: float(...Array.from({ length: 20 }, (_, at) => at / 4)),
        name: bytes(`n${id}`),
        ignored: bytes('x'),
      }),
    );
    const batch = parseExample(spec).parse(records);
    expect(read.mock.results.map((result) => result.value as boolean)).toEqual([true, true, true, true]);
    expect(plain(batch.id)).toEqual([-1, 0, 300, 2 ** 40]);
    expect(plain(batch.small)).toEqual([-1, 0, 300, 2 ** 40 % 1000]);
    expect(plain(batch.big)).toEqual([-3, 0, 900, 3 * 2 ** 40]);
    expect(plain(batch.pair)).toEqual([1.5, -2, 1.5, -2, 1.5, -2, 1.5, -2]);
    expect(plain(batch.many).slice(18, 22)).toEqual([4.5, 4.75, 0, 0.25]);
    expect(plain(batch.name)).toEqual(['n-1', 'n0', 'n300', `n${2 ** 40}`]);
  });

  it('leaves a key given twice to the general parser: the last entry counts, a missing key still fails', () => {
    const entries = (record: Uint8Array): number[] => [...record.subarray(2)];
    const a1 = serialize({ a: int64(1) });
    const a2 = serialize({ a: int64(2) });
    const b = serialize({ b: int64(3) });
    const twice = (...parts: Uint8Array[]): Uint8Array => {
      const body = parts.flatMap(entries);
      return new Uint8Array([0x0a, body.length, ...body]);
    };
    const spec = { a: fixedLen([], 'int64'), b: fixedLen([], 'int64') };
    expect(plain(parseExample(spec).parse([twice(a1, b, a2)]).a)).toEqual([2]);
    let error: unknown;
    try {
      parseExample(spec).parse([twice(a1, a2)]);
    } catch (caught) {
      error = caught;
    }
    expect(TfpipeError.is(error) && error.code).toBe('FEATURE_MISSING');
  });
});
