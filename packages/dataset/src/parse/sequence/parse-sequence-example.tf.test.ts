// ParseSequenceExampleTest of TensorFlow's parsing_ops_test.py, ported (batch form: `_testBoth`'s
// batch side adds a batch dimension of one).
import {
  bytes,
  emptyFeature,
  encodeSequenceExample,
  float,
  int64,
  sequenceExample,
  TfpipeError,
} from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { fixedLen, fixedLenSequence, ragged, varLen } from '../../spec/feature-spec.js';
import { plain, raggedList, sparseTriple } from '../tensor-test-helpers.js';
import { parseSequenceExample } from './parse-sequence-example.js';

const serialize = (
  context: Readonly<Record<string, Feature>>,
  lists: Readonly<Record<string, readonly Feature[]>>,
): Uint8Array => encodeSequenceExample(sequenceExample(context, lists));

function failure(run: () => unknown): TfpipeError {
  try {
    run();
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a TfpipeError');
}

const sparseLists = serialize(
  {},
  {
    a: [int64(3, 4), int64(1, 0)],
    st_a: [float(3, 4), float(5), float()],
    st_b: [bytes('a'), bytes(), bytes(), bytes('b', 'c')],
  },
);

describe('ParseSequenceExampleTest (parsing_ops_test.py)', () => {
  it('testSequenceExampleWithSparseAndDenseContext', () => {
    const record = serialize({ c: float(3, 4), st_a: float(3, 4) }, {});
    const batch = parseSequenceExample(
      {
        st_a: varLen('float32'),
        a: fixedLen([1, 3], 'int64', { default: [1, 2, 3] }),
        c: fixedLen([2], 'float32'),
      },
      {},
    ).parse([record]);
    expect(sparseTriple(batch.context.st_a)).toEqual([
      [
        [0, 0],
        [0, 1],
      ],
      [3, 4],
      [1, 2],
    ]);
    expect(plain(batch.context.a)).toEqual([1, 2, 3]);
    expect(plain(batch.context.c)).toEqual([3, 4]);
  });

  it('testSequenceExampleWithMultipleSizeFeatureLists', () => {
    const record = serialize(
      {},
      {
        a: [int64(-1, 0, 1), int64(2, 3, 4), int64(5, 6, 7), int64(8, 9, 10)],
        b: [bytes('r00', 'r01', 'r10', 'r11')],
        c: [float(3, 4), float(-1, 2)],
      },
    );
    const batch = parseSequenceExample(
      {},
      {
        a: fixedLenSequence([1, 3], 'int64'),
        b: fixedLenSequence([2, 2], 'string'),
        c: fixedLenSequence([2], 'float32'),
        d: fixedLenSequence([5], 'float32', { allowMissing: true }),
      },
    ).parse([record]);
    expect(plain(batch.featureLists.a)).toEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(batch.featureLists.a.shape).toEqual([1, 4, 1, 3]);
    expect(plain(batch.featureLists.b)).toEqual(['r00', 'r01', 'r10', 'r11']);
    expect(batch.featureLists.b.shape).toEqual([1, 1, 2, 2]);
    expect(plain(batch.featureLists.c)).toEqual([3, 4, -1, 2]);
    expect(batch.featureLists.d.shape).toEqual([1, 0, 5]);
    expect(Array.from(batch.lengths.a.data)).toEqual([4n]);
    expect(Array.from(batch.lengths.d.data)).toEqual([0n]);
  });

  it('testSequenceExampleWithSparseAndDenseFeatureLists', () => {
    const batch = parseSequenceExample(
      {},
      {
        st_a: varLen('float32'),
        st_b: varLen('string'),
        st_c: varLen('int64'),
        a: fixedLenSequence([2], 'int64'),
      },
    ).parse([sparseLists]);
    expect(plain(batch.featureLists.a)).toEqual([3, 4, 1, 0]);
    expect(sparseTriple(batch.featureLists.st_a)).toEqual([
      [
        [0, 0, 0],
        [0, 0, 1],
        [0, 1, 0],
      ],
      [3, 4, 5],
      [1, 3, 2],
    ]);
    expect(sparseTriple(batch.featureLists.st_b)).toEqual([
      [
        [0, 0, 0],
        [0, 3, 0],
        [0, 3, 1],
      ],
      ['a', 'b', 'c'],
      [1, 4, 2],
    ]);
    expect(sparseTriple(batch.featureLists.st_c)).toEqual([[], [], [1, 0, 0]]);
  });

  it('testSequenceExampleWithEmptyFeatureInFeatureLists', () => {
    const record = serialize({}, { st_a: [float(3, 4), emptyFeature(), float(5)] });
    const batch = parseSequenceExample({}, { st_a: varLen('float32') }).parse([record]);
    expect(sparseTriple(batch.featureLists.st_a)).toEqual([
      [
        [0, 0, 0],
        [0, 0, 1],
        [0, 2, 0],
      ],
      [3, 4, 5],
      [1, 3, 2],
    ]);
  });

  it.each([
    ['testSequenceExampleListWithInconsistentDataFails', [int64(-1, 0), float(2, 3)], 1],
    ['testSequenceExampleListWithWrongDataTypeFails', [float(2, 3)], 0],
    ['testSequenceExampleListWithWrongSparseDataTypeFails', [int64(3, 4), int64(1, 2), float(2, 3)], 2],
  ])('%s', (_name, steps, index) => {
    const record = serialize({}, { a: steps });
    const error = failure(() =>
      parseSequenceExample({}, { a: fixedLenSequence([2], 'int64') }).parse([record]),
    );
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.detail).toBe(
      `Feature list: a, Index: ${index}.  Data types don't match. Expected type: int64`,
    );
  });

  it('testSequenceExampleListWithWrongShapeFails and ...Fails2', () => {
    const spec = { a: fixedLenSequence([2], 'int64') };
    for (const [steps, index, size] of [
      [[int64(2, 3), int64(2, 3, 4)], 1, 3],
      [[int64(2), int64(2, 3, 4)], 0, 1],
    ] as const) {
      const error = failure(() => parseSequenceExample({}, spec).parse([serialize({}, { a: steps })]));
      expect(error.detail).toBe(
        `Key: a, Index: ${index}.  Number of int64 values != expected.  values size: ${size} but output shape: [2]`,
      );
    }
  });

  it('testSequenceExampleWithMissingFeatureListFails', () => {
    const error = failure(() =>
      parseSequenceExample({}, { a: fixedLenSequence([2], 'int64') }).parse([serialize({}, {})], {
        file: 'in1',
      }),
    );
    expect(error.code).toBe('FEATURE_MISSING');
    expect(error.detail).toMatch(/^Feature list 'a' is required but could not be found\./);
    expect(error.position).toMatchObject({ file: 'in1', recordIndex: 0, field: 'a' });
  });

  it('testSequenceExampleBatch: padding with zeros and the sequence lengths', () => {
    const first = serialize({}, { a: [int64(-1, 0, 1), int64(2, 3, 4), int64(5, 6, 7), int64(8, 9, 10)] });
    const second = serialize({ c: float(7) }, { a: [int64(21, 2, 11)], b: [int64(5)] });
    const batch = parseSequenceExample(
      { c: fixedLen([], 'float32', { default: -1 }) },
      {
        a: fixedLenSequence([1, 3], 'int64'),
        b: fixedLenSequence([], 'int64', { allowMissing: true }),
        d: fixedLenSequence([5], 'float32', { allowMissing: true }),
      },
    ).parse([first, second]);
    expect(plain(batch.context.c)).toEqual([-1, 7]);
    expect(plain(batch.featureLists.a)).toEqual([
      -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 2, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(batch.featureLists.a.shape).toEqual([2, 4, 1, 3]);
    expect(plain(batch.featureLists.b)).toEqual([0, 5]);
    expect(batch.featureLists.d.shape).toEqual([2, 0, 5]);
    expect(Array.from(batch.lengths.a.data)).toEqual([4n, 1n]);
    expect(Array.from(batch.lengths.b.data)).toEqual([0n, 1n]);
    expect(Array.from(batch.lengths.d.data)).toEqual([0n, 0n]);
  });

  it('testSerializedContainingRaggedFeatureWithNoPartitions (feature lists: Examples → steps → values)', () => {
    const record = serialize(
      { a: float(3, 4) },
      { b: [float(1, 2), emptyFeature(), float(3)], c: [bytes('x')] },
    );
    const batch = parseSequenceExample(
      { a: ragged('float32') },
      { b: ragged('float32'), c: ragged('string') },
    ).parse([record, serialize({}, {})]);
    expect(raggedList(batch.context.a)).toEqual([[3, 4], []]);
    expect(raggedList(batch.featureLists.b)).toEqual([[[1, 2], [], [3]], []]);
    expect(raggedList(batch.featureLists.c)).toEqual([[['x']], []]);
  });
});
