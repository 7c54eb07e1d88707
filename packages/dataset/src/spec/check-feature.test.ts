import { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { parseExample } from '../parse/parse-example.js';
import type { ExampleParseSpec, FeatureSpec } from './feature-spec.js';
import { fixedLen, fixedLenSequence, MAX_SHAPE_VALUES, ragged, sparse, varLen } from './feature-spec.js';
import { rowSplits, uniformRowLength } from './ragged-partition.js';

function failure(run: () => unknown): TfpipeError {
  try {
    run();
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw new Error(`expected a TfpipeError, got ${String(error)}`);
  }
  throw new Error('expected a TfpipeError, nothing was thrown');
}

/** A spec entry written by hand (or read from elsewhere), which no constructor checked. */
const hand = (feature: Record<string, unknown>): ExampleParseSpec => ({
  feat: feature as unknown as FeatureSpec,
});

describe('feature spec constructors refuse shapes TensorFlow or a record cannot hold', () => {
  const shapes: [string, number[]][] = [
    ['2^31 values', [2 ** 31]],
    ['10^12 values', [1e6, 1e6]],
    ['a product past 2^53', [2 ** 30, 2 ** 30, 2 ** 30]],
    ['a negative dimension', [-1]],
    ['a zero dimension', [0]],
    ['a fractional dimension', [1.5]],
    ['NaN', [Number.NaN]],
    ['Infinity', [Number.POSITIVE_INFINITY]],
  ];
  for (const [what, shape] of shapes) {
    it(`fixedLen and fixedLenSequence refuse ${what}`, () => {
      for (const build of [
        () => fixedLen(shape, 'float32'),
        () => fixedLenSequence(shape, 'float32', { allowMissing: true }),
      ]) {
        const error = failure(build);
        expect(error.code).toBe('INVALID_OPTION');
        expect(error.detail).toContain(`[${shape.map(String).join(', ')}]`);
      }
    });
  }

  it('accepts the largest shape a record can fill, and refuses one more value', () => {
    expect(fixedLen([MAX_SHAPE_VALUES], 'float32').shape).toEqual([MAX_SHAPE_VALUES]);
    expect(failure(() => fixedLen([MAX_SHAPE_VALUES + 1], 'float32')).detail).toContain(
      'holds 2147483648 values',
    );
    expect(failure(() => fixedLen([2, 2 ** 30], 'int64')).detail).toContain('holds 2147483648 values');
  });

  it('sparse size stays a dense shape (no value limit) but needs whole positive sizes', () => {
    expect(sparse({ indexKey: 'i', valueKey: 'v', dtype: 'float32', size: 2 ** 40 }).size).toEqual([2 ** 40]);
    for (const size of [0, -3, 2.5, 2 ** 53]) {
      expect(failure(() => sparse({ indexKey: 'i', valueKey: 'v', dtype: 'float32', size })).code).toBe(
        'INVALID_OPTION',
      );
    }
  });

  it('uniformRowLength refuses a non-positive or fractional length', () => {
    for (const length of [0, -1, 1.5])
      expect(failure(() => uniformRowLength(length)).code).toBe('INVALID_OPTION');
  });
});

describe('compileSpec checks hand-built entries by the same rules, naming the feature', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['fixedLen [1.5]', { type: 'fixedLen', shape: [1.5], dtype: 'float32', default: undefined }, '[1.5]'],
    [
      'fixedLen [2^31]',
      { type: 'fixedLen', shape: [2 ** 31], dtype: 'float32', default: undefined },
      'holds',
    ],
    [
      'fixedLen [1e6, 1e6]',
      { type: 'fixedLen', shape: [1e6, 1e6], dtype: 'int64', default: undefined },
      'holds',
    ],
    ['fixedLen [-2]', { type: 'fixedLen', shape: [-2], dtype: 'float32', default: undefined }, '[-2]'],
    [
      'fixedLen shape not an array',
      { type: 'fixedLen', shape: 3, dtype: 'float32', default: undefined },
      'array',
    ],
    [
      'fixedLen unknown dtype',
      { type: 'fixedLen', shape: [], dtype: 'float64', default: undefined },
      'dtype',
    ],
    [
      'fixedLen default of the wrong length',
      { type: 'fixedLen', shape: [2], dtype: 'float32', default: new Float32Array(3) },
      '3 values',
    ],
    [
      'fixedLen default of the wrong dtype',
      { type: 'fixedLen', shape: [2], dtype: 'int64', default: new Float32Array(2) },
      'dtype int64',
    ],
    ['varLen unknown dtype', { type: 'varLen', dtype: 'int8' }, 'dtype'],
    [
      'fixedLenSequence [0]',
      { type: 'fixedLenSequence', shape: [0], dtype: 'float32', allowMissing: true, default: undefined },
      '[0]',
    ],
    [
      'fixedLenSequence allowMissing not boolean',
      { type: 'fixedLenSequence', shape: [], dtype: 'float32', allowMissing: 'yes', default: undefined },
      'allowMissing',
    ],
    [
      'sparse size [1.5]',
      {
        type: 'sparse',
        indexKeys: ['i'],
        valueKey: 'v',
        dtype: 'float32',
        size: [1.5],
        alreadySorted: false,
      },
      '[1.5]',
    ],
    [
      'sparse with no index keys',
      { type: 'sparse', indexKeys: [], valueKey: 'v', dtype: 'float32', size: [], alreadySorted: false },
      'indexKeys',
    ],
    [
      'sparse keys and sizes that differ',
      {
        type: 'sparse',
        indexKeys: ['i', 'j'],
        valueKey: 'v',
        dtype: 'float32',
        size: [3],
        alreadySorted: false,
      },
      '2 index keys but 1 sizes',
    ],
    [
      'sparse value key not a name',
      { type: 'sparse', indexKeys: ['i'], valueKey: 7, dtype: 'float32', size: [3], alreadySorted: false },
      'valueKey',
    ],
    [
      'ragged uniformRowLength -1',
      {
        type: 'ragged',
        dtype: 'float32',
        valueKey: undefined,
        partitions: [{ type: 'uniformRowLength', length: -1 }],
      },
      'uniformRowLength',
    ],
    [
      'ragged partition of an unknown type',
      {
        type: 'ragged',
        dtype: 'float32',
        valueKey: undefined,
        partitions: [{ type: 'rowSplitz', key: 'k' }],
      },
      'unknown type',
    ],
    [
      'ragged partition without a key',
      { type: 'ragged', dtype: 'float32', valueKey: undefined, partitions: [{ type: 'rowSplits', key: '' }] },
      'key',
    ],
  ];
  for (const [what, feature, words] of cases) {
    it(`refuses ${what}`, () => {
      const error = failure(() => parseExample(hand(feature)));
      expect(error.code).toBe('INVALID_OPTION');
      expect(error.position.field).toBe('feat');
      expect(error.detail).toContain('feature feat');
      expect(error.detail).toContain(words);
    });
  }

  it('accepts what the constructors build', () => {
    const spec = {
      a: fixedLen([2, 3], 'float32', { default: [0, 1, 2, 3, 4, 5] }),
      b: varLen('int64'),
      c: fixedLenSequence([2], 'string', { allowMissing: true, default: 'x' }),
      d: sparse({ indexKey: ['i', 'j'], valueKey: 'v', dtype: 'int32', size: [4, 5] }),
      e: ragged('float32', { partitions: [rowSplits('s'), uniformRowLength(2)] }),
    };
    expect(parseExample(spec).parse([]).a.shape).toEqual([0, 2, 3]);
  });
});

describe('a batch too large for one typed array', () => {
  it('is an INVALID_OPTION naming the feature, not a RangeError', () => {
    const parser = parseExample({ wide: fixedLen([2 ** 30], 'float32') });
    const empty = new Uint8Array(0);
    const error = failure(() => parser.parse([empty, empty, empty, empty, empty]));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.position.field).toBe('wide');
    expect(error.detail).toContain('a batch of 5 Examples');
  });
});
