// The cases of TensorFlow's tensorflow/python/kernel_tests/io_ops/parsing_ops_test.py, ported: each
// test names the TF test it comes from, with TF's inputs and TF's expected outputs or messages.
import { bytes, emptyFeature, float, int64, TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { fixedLen, fixedLenSequence, ragged, sparse, varLen } from '../spec/feature-spec.js';
import {
  rowLengths,
  rowLimits,
  rowSplits,
  rowStarts,
  uniformRowLength,
  valueRowIds,
} from '../spec/ragged-partition.js';
import { parseExample } from './parse-example.js';
import { plain, raggedList, serialize, sparseTriple } from './tensor-test-helpers.js';

function failure(run: () => unknown): TfpipeError {
  try {
    run();
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a TfpipeError');
}

const B_DEFAULT = ['b00', 'b01', 'b02', 'b10', 'b11', 'b12', 'b20', 'b21', 'b22'];

describe('ParseExampleTest (parsing_ops_test.py)', () => {
  it('testEmptySerializedWithAllDefaults', () => {
    const parser = parseExample({
      st_a: varLen('int64'),
      a: fixedLen([1, 3], 'int64', { default: [0, 42, 0] }),
      b: fixedLen([3, 3], 'string', { default: B_DEFAULT }),
      'c:has_a_tricky_name': fixedLen([2], 'float32', { default: [0.25, 0.5] }),
    });
    const batch = parser.parse([new Uint8Array(0), new Uint8Array(0)]);
    expect(sparseTriple(batch.st_a)).toEqual([[], [], [2, 0]]);
    expect(plain(batch.a)).toEqual([0, 42, 0, 0, 42, 0]);
    expect(batch.a.shape).toEqual([2, 1, 3]);
    expect(plain(batch.b)).toEqual([...B_DEFAULT, ...B_DEFAULT]);
    expect(batch.b.shape).toEqual([2, 3, 3]);
    expect(plain(batch['c:has_a_tricky_name'])).toEqual([0.25, 0.5, 0.25, 0.5]);
  });

  it('testEmptySerializedWithoutDefaultsShouldFail: a kindless feature and a missing one are both missing', () => {
    const parser = parseExample({
      st_a: varLen('int64'),
      a: fixedLen([1, 3], 'int64', { default: [0, 42, 0] }),
      c: fixedLen([2], 'float32'),
    });
    for (const record of [serialize({ c: emptyFeature() }), new Uint8Array(0)]) {
      const error = failure(() => parser.parse([record], { file: 'in1' }));
      expect(error.code).toBe('FEATURE_MISSING');
      expect(error.message).toMatch(/^Feature: c \(data type: float\) is required but could not be found\./);
      expect(error.position).toMatchObject({ file: 'in1', recordIndex: 0, field: 'c' });
    }
  });

  it('testDenseNotMatchingShapeShouldFail', () => {
    const records = [serialize({ a: float(1, 1, 3) }), serialize({ a: float(-1, -1) })];
    const error = failure(() => parseExample({ a: fixedLen([1, 3], 'float32') }).parse(records));
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.detail).toBe(
      'Key: a, Index: 1.  Number of float values != expected.  Values size: 2 but output shape: [1,3]',
    );
    expect(error.position.recordIndex).toBe(1);
  });

  it('testDenseDefaultNoShapeShouldFail and a shape with an unknown dimension', () => {
    expect(() => fixedLen(null as unknown as number[], 'float32')).toThrow(/shape must be an array/);
    expect(() => fixedLen([1, null as unknown as number], 'int64', { default: [[1]] })).toThrow(
      /all dimensions of shape need to be known and positive/,
    );
  });

  it('testSerializedContainingSparse: empty lists and kindless features are empty rows', () => {
    const records = [
      serialize({ st_c: float(3, 4) }),
      serialize({ st_c: float() }),
      serialize({ st_d: emptyFeature() }),
      serialize({ st_c: float(1, 2, -1), st_d: bytes('hi') }),
    ];
    const batch = parseExample({ st_c: varLen('float32'), st_d: varLen('string') }).parse(records);
    expect(sparseTriple(batch.st_c)).toEqual([
      [
        [0, 0],
        [0, 1],
        [3, 0],
        [3, 1],
        [3, 2],
      ],
      [3, 4, 1, 2, -1],
      [4, 3],
    ]);
    expect(sparseTriple(batch.st_d)).toEqual([[[3, 0]], ['hi'], [4, 1]]);
  });

  it('testSerializedContainingSparseFeature: indices sorted within each Example', () => {
    const records = [
      serialize({ val: float(3, 4), idx: int64(5, 10) }),
      serialize({ val: float(), idx: int64() }),
      serialize({ val: emptyFeature() }),
      serialize({ val: float(1, 2, -1), idx: int64(0, 9, 3) }),
    ];
    const batch = parseExample({
      sp: sparse({ indexKey: ['idx'], valueKey: 'val', dtype: 'float32', size: [13] }),
    }).parse(records);
    expect(sparseTriple(batch.sp)).toEqual([
      [
        [0, 5],
        [0, 10],
        [3, 0],
        [3, 3],
        [3, 9],
      ],
      [3, 4, 1, -1, 2],
      [4, 13],
    ]);
  });

  it('testSerializedContainingSparseFeatureReuse (an index beyond size fails here, where TF passes it on)', () => {
    const records = [
      serialize({ val1: float(3, 4), val2: float(5, 6), idx: int64(5, 10) }),
      serialize({ val1: float(), idx: int64() }),
    ];
    const spec = {
      sp1: sparse({ indexKey: 'idx', valueKey: 'val1', dtype: 'float32', size: 13 }),
      sp2: sparse({ indexKey: 'idx', valueKey: 'val2', dtype: 'float32', size: 11, alreadySorted: true }),
    };
    const batch = parseExample(spec).parse(records);
    expect(sparseTriple(batch.sp1)).toEqual([
      [
        [0, 5],
        [0, 10],
      ],
      [3, 4],
      [2, 13],
    ]);
    expect(sparseTriple(batch.sp2)).toEqual([
      [
        [0, 5],
        [0, 10],
      ],
      [5, 6],
      [2, 11],
    ]);
    // TF's test uses size 7 and returns index 10 in a [2, 7] tensor; that tensor is invalid, so we fail.
    const tfSize = {
      sp2: sparse({ indexKey: 'idx', valueKey: 'val2', dtype: 'float32', size: 7, alreadySorted: true }),
    };
    expect(failure(() => parseExample(tfSize).parse(records)).detail).toBe(
      'Key: idx, Index: 0.  Index 10 of sp2 is out of range [0, 7)',
    );
  });

  it('testSerializedContaining3DSparseFeature', () => {
    const records = [
      serialize({ val: float(3, 4), idx0: int64(5, 10), idx1: int64(0, 2) }),
      serialize({ val: float(), idx0: int64(), idx1: int64() }),
      serialize({ val: emptyFeature() }),
      serialize({ val: float(1, 2, -1), idx0: int64(0, 9, 3), idx1: int64(1, 0, 2) }),
    ];
    const spec = {
      sp: sparse({ indexKey: ['idx0', 'idx1'], valueKey: 'val', dtype: 'float32', size: [13, 3] }),
    };
    expect(sparseTriple(parseExample(spec).parse(records).sp)).toEqual([
      [
        [0, 5, 0],
        [0, 10, 2],
        [3, 0, 1],
        [3, 3, 2],
        [3, 9, 0],
      ],
      [3, 4, 1, -1, 2],
      [4, 13, 3],
    ]);
  });

  const denseSpec = {
    a: fixedLen([1, 2, 1], 'float32'),
    'b*has+a:tricky_name': fixedLen([1, 1, 1, 1], 'string'),
  };

  it('testSerializedContainingDense', () => {
    const records = [
      serialize({ a: float(1, 1), 'b*has+a:tricky_name': bytes('b0_str') }),
      serialize({ a: float(-1, -1), 'b*has+a:tricky_name': bytes('') }),
    ];
    const batch = parseExample(denseSpec).parse(records);
    expect(plain(batch.a)).toEqual([1, 1, -1, -1]);
    expect(batch.a.shape).toEqual([2, 1, 2, 1]);
    expect(plain(batch['b*has+a:tricky_name'])).toEqual(['b0_str', '']);
    expect(batch['b*has+a:tricky_name'].shape).toEqual([2, 1, 1, 1, 1]);
  });

  it('testSerializedContainingDenseWithConcat: two Examples concatenated merge, the later key wins', () => {
    const concat = (first: Uint8Array, second: Uint8Array): Uint8Array => {
      const joined = new Uint8Array(first.length + second.length);
      joined.set(first);
      joined.set(second, first.length);
      return joined;
    };
    const records = [
      concat(
        serialize({ a: float(10, 10) }),
        serialize({ a: float(1, 1), 'b*has+a:tricky_name': bytes('b0_str') }),
      ),
      concat(
        serialize({ 'b*has+a:tricky_name': bytes('b100') }),
        serialize({ a: float(-1, -1), 'b*has+a:tricky_name': bytes('b1') }),
      ),
    ];
    const batch = parseExample(denseSpec).parse(records);
    expect(plain(batch.a)).toEqual([1, 1, -1, -1]);
    expect(plain(batch['b*has+a:tricky_name'])).toEqual(['b0_str', 'b1']);
  });

  it('testSerializedContainingDenseScalar', () => {
    const records = [serialize({ a: float(1) }), serialize({})];
    const batch = parseExample({ a: fixedLen([1], 'float32', { default: -1 }) }).parse(records);
    expect(plain(batch.a)).toEqual([1, -1]);
    expect(batch.a.shape).toEqual([2, 1]);
  });

  it('testSerializedContainingDenseWithDefaults', () => {
    const records = [
      serialize({ a: float(1, 1) }),
      serialize({ b: bytes('b1') }),
      serialize({ b: emptyFeature() }),
    ];
    const batch = parseExample({
      a: fixedLen([1, 2, 1], 'float32', { default: [3, -3] }),
      b: fixedLen([1, 1, 1, 1], 'string', { default: 'tmp_str' }),
    }).parse(records);
    expect(plain(batch.a)).toEqual([1, 1, 3, -3, 3, -3]);
    expect(batch.a.shape).toEqual([3, 1, 2, 1]);
    expect(plain(batch.b)).toEqual(['tmp_str', 'b1', 'tmp_str']);
  });

  it('testSerializedContainingSparseAndSparseFeatureAndDenseWithNoDefault', () => {
    const records = [
      serialize({ c: float(3, 4), val: bytes('a', 'b'), idx: int64(0, 3) }),
      serialize({ c: float(1, 2), val: bytes('c'), idx: int64(7) }),
    ];
    const batch = parseExample({
      st_a: varLen('int64'),
      sp: sparse({ indexKey: 'idx', valueKey: 'val', dtype: 'string', size: 13 }),
      a: fixedLen([1, 3], 'int64', { default: [1, 2, 3] }),
      b: fixedLen([3, 3], 'string', { default: B_DEFAULT }),
      c: fixedLen([2], 'float32'),
    }).parse(records);
    expect(sparseTriple(batch.st_a)).toEqual([[], [], [2, 0]]);
    expect(sparseTriple(batch.sp)).toEqual([
      [
        [0, 0],
        [0, 3],
        [1, 7],
      ],
      ['a', 'b', 'c'],
      [2, 13],
    ]);
    expect(plain(batch.a)).toEqual([1, 2, 3, 1, 2, 3]);
    expect(plain(batch.b)).toEqual([...B_DEFAULT, ...B_DEFAULT]);
    expect(plain(batch.c)).toEqual([3, 4, 1, 2]);
  });

  it('testSerializedContainingSparseAndSparseFeatureWithReuse', () => {
    const records = [
      serialize({ val: bytes('a', 'b'), idx: int64(0, 3) }),
      serialize({ val: bytes('c', 'd'), idx: int64(7, 1) }),
    ];
    const batch = parseExample({
      idx: varLen('int64'),
      sp: sparse({ indexKey: ['idx'], valueKey: 'val', dtype: 'string', size: [13] }),
    }).parse(records);
    expect(sparseTriple(batch.idx)).toEqual([
      [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ],
      [0, 3, 7, 1],
      [2, 2],
    ]);
    expect(sparseTriple(batch.sp)).toEqual([
      [
        [0, 0],
        [0, 3],
        [1, 1],
        [1, 7],
      ],
      ['a', 'b', 'd', 'c'],
      [2, 13],
    ]);
  });

  it('testSerializedContainingVarLenDenseLargerBatch', () => {
    let seed = 3456;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const batchSize of [1, 10, 20, 100, 256]) {
      const truth = Array.from({ length: batchSize }, (_, index) => [`foo${index}`, `bar${index}`]);
      const expected = truth.map((pair) => [...pair]);
      for (let index = 1; index < batchSize; index++) {
        let column = 1;
        if (random() < 0.25) {
          expected[index]![column] = 'default';
          column -= 1;
          truth[index]!.pop();
        }
        if (random() < 0.25) {
          expected[index]![column] = 'default';
          truth[index]!.pop();
        }
      }
      const records = truth.map((strings, index) => serialize({ a: int64(index), b: bytes(...strings) }));
      const batch = parseExample({
        a: fixedLenSequence([], 'int64', { allowMissing: true, default: -1 }),
        b: fixedLenSequence([], 'string', { allowMissing: true, default: 'default' }),
      }).parse(records);
      expect(plain(batch.a)).toEqual(truth.map((_, index) => index));
      expect(batch.a.shape).toEqual([batchSize, 1]);
      expect(plain(batch.b)).toEqual(expected.flat());
      expect(batch.b.shape).toEqual([batchSize, 2]);
    }
  });

  describe('testSerializedContainingVarLenDense', () => {
    const records = [
      serialize({ c: int64(2) }),
      serialize({ a: float(1, 1), b: bytes('b0_str', 'b1_str') }),
      serialize({ a: float(-1, -1, 2, 2), b: bytes('b1') }),
      serialize({ a: float(), c: int64(3) }),
    ];
    const spec = {
      a: fixedLenSequence([2, 1], 'float32', { allowMissing: true }),
      b: fixedLenSequence([1, 1, 1], 'string', { allowMissing: true }),
      c: fixedLenSequence([], 'int64', { allowMissing: true }),
      d: fixedLenSequence([], 'string', { allowMissing: true }),
    };

    it('pads to the longest Example with zeros and empty strings', () => {
      const batch = parseExample(spec).parse(records);
      expect(plain(batch.a)).toEqual([0, 0, 0, 0, 1, 1, 0, 0, -1, -1, 2, 2, 0, 0, 0, 0]);
      expect(batch.a.shape).toEqual([4, 2, 2, 1]);
      expect(plain(batch.b)).toEqual(['', '', 'b0_str', 'b1_str', 'b1', '', '', '']);
      expect(batch.b.shape).toEqual([4, 2, 1, 1, 1]);
      expect(plain(batch.c)).toEqual([2, 0, 0, 3]);
      expect(batch.c.shape).toEqual([4, 1]);
      expect(plain(batch.d)).toEqual([]);
      expect(batch.d.shape).toEqual([4, 0]);
    });

    it('pads with the default', () => {
      const padded = { ...spec, a: fixedLenSequence([2, 1], 'float32', { allowMissing: true, default: -2 }) };
      expect(plain(parseExample(padded).parse(records).a)).toEqual([
        -2, -2, -2, -2, 1, 1, -2, -2, -1, -1, 2, 2, -2, -2, -2, -2,
      ]);
    });

    it('fails when the values are not a multiple of the step', () => {
      const strided = { a: spec.a, b: fixedLenSequence([2, 1, 1], 'string', { allowMissing: true }) };
      const error = failure(() => parseExample(strided).parse(records));
      expect(error.detail).toMatch(
        /^Key: b, Index: 2\. {2}Number of bytes values is not a multiple of stride length\./,
      );
      expect(error.position.recordIndex).toBe(2);
    });

    it('rejects an empty default, and allowMissing false', () => {
      expect(() => fixedLenSequence([2, 1], 'float32', { allowMissing: true, default: [] })).toThrow(
        /default has 0 values, but its shape holds 1/,
      );
      expect(() => parseExample({ c: fixedLenSequence([], 'int64') })).toThrow(
        'Unsupported: FixedLenSequenceFeature requires allow_missing to be True.',
      );
    });
  });

  const raggedRecords = [
    serialize({ rt_c: float(3, 4) }),
    serialize({ rt_c: float() }),
    serialize({ rt_d: emptyFeature() }),
    serialize({ rt_c: float(1, 2, -1), rt_d: bytes('hi') }),
  ];

  it('testSerializedContainingRaggedFeatureWithNoPartitions', () => {
    const parser = parseExample({ rt_c: ragged('float32'), rt_d: ragged('string') });
    const batch = parser.parse(raggedRecords);
    expect(raggedList(batch.rt_c)).toEqual([[3, 4], [], [], [1, 2, -1]]);
    expect(batch.rt_c.rowSplits[0]).toBeInstanceOf(Int32Array);
    expect(raggedList(batch.rt_d)).toEqual([[], [], [], ['hi']]);
    const large = parser.parse(Array.from({ length: 64 }, () => raggedRecords).flat());
    expect(raggedList(large.rt_c)).toEqual(
      Array.from({ length: 64 }, () => [[3, 4], [], [], [1, 2, -1]]).flat(),
    );
  });

  it('testSerializedContainingRaggedFeature: every partition kind', () => {
    const records = [
      serialize({
        rt_values: float(3, 4, 5, 6),
        rt_splits: int64(0, 1, 4),
        rt_lengths: int64(1, 3),
        rt_starts: int64(0, 1),
        rt_limits: int64(1, 4),
        rt_rowids: int64(0, 1, 1, 1),
      }),
      serialize({
        rt_values: float(),
        rt_splits: int64(0),
        rt_lengths: int64(),
        rt_starts: int64(),
        rt_limits: int64(),
        rt_rowids: int64(),
      }),
      serialize({
        rt_values: emptyFeature(),
        rt_splits: int64(0),
        rt_lengths: emptyFeature(),
        rt_starts: emptyFeature(),
        rt_limits: emptyFeature(),
        rt_rowids: emptyFeature(),
      }),
      serialize({
        rt_values: float(1, 2, -1, 8, 9, 5),
        rt_splits: int64(0, 3, 3, 5, 6),
        rt_lengths: int64(3, 0, 2, 1),
        rt_starts: int64(0, 3, 3, 5),
        rt_limits: int64(3, 3, 5, 6),
        rt_rowids: int64(0, 0, 0, 2, 2, 3),
      }),
    ];
    const valueKey = 'rt_values';
    const batch = parseExample({
      rt1: ragged('float32', { valueKey, partitions: [rowSplits('rt_splits')] }),
      rt2: ragged('float32', { valueKey, partitions: [rowLengths('rt_lengths')] }),
      rt3: ragged('float32', { valueKey, partitions: [rowStarts('rt_starts')] }),
      rt4: ragged('float32', { valueKey, partitions: [rowLimits('rt_limits')] }),
      rt5: ragged('float32', { valueKey, partitions: [valueRowIds('rt_rowids')] }),
      uniform1: ragged('float32', { valueKey, partitions: [uniformRowLength(2)] }),
      uniform2: ragged('float32', { valueKey, partitions: [uniformRowLength(2), rowSplits('rt_splits')] }),
    }).parse(records);
    const expected = [[[3], [4, 5, 6]], [], [], [[1, 2, -1], [], [8, 9], [5]]];
    for (const name of ['rt1', 'rt2', 'rt3', 'rt4', 'rt5'] as const)
      expect(raggedList(batch[name])).toEqual(expected);
    // TF keeps a uniform dimension dense; here it is a row-splits level with equal rows, the same nesting.
    expect(raggedList(batch.uniform1)).toEqual([
      [
        [3, 4],
        [5, 6],
      ],
      [],
      [],
      [
        [1, 2],
        [-1, 8],
        [9, 5],
      ],
    ]);
    expect(raggedList(batch.uniform2)).toEqual([
      [[[3], [4, 5, 6]]],
      [],
      [],
      [
        [[1, 2, -1], []],
        [[8, 9], [5]],
      ],
    ]);
  });

  it('testSerializedContainingNestedRaggedFeature', () => {
    const records = [
      serialize({
        rt_values: float(1, 2, 3, 4, 5, 6, 7),
        lengths_axis2: int64(1, 2, 0, 1),
        lengths_axis3: int64(1, 2, 1, 3),
        splits_axis3: int64(0, 1, 3, 4, 7),
      }),
      serialize({
        rt_values: float(1, 2, 3, 4, 5, 6, 7, 8),
        lengths_axis2: int64(2, 3),
        lengths_axis3: int64(3, 1, 1, 1, 2),
        splits_axis3: int64(0, 3, 4, 5, 6, 8),
      }),
    ];
    const partitions = [uniformRowLength(2), rowLengths('lengths_axis2'), rowSplits('splits_axis3')];
    const batch = parseExample({ rt1: ragged('float32', { valueKey: 'rt_values', partitions }) }).parse(
      records,
    );
    expect(raggedList(batch.rt1)).toEqual([
      [
        [[[1]], [[2, 3], [4]]],
        [[], [[5, 6, 7]]],
      ],
      [
        [
          [[1, 2, 3], [4]],
          [[5], [6], [7, 8]],
        ],
      ],
    ]);
  });

  it('testSerializedContainingMisalignedRaggedFeatureRowLengths', () => {
    const records = [
      serialize({ rt_values: float(), rt_lengths: int64(5) }),
      serialize({ rt_values: float(1, 2, 3, 4, 5), rt_lengths: int64() }),
    ];
    const spec = { rt: ragged('float32', { valueKey: 'rt_values', partitions: [rowLengths('rt_lengths')] }) };
    const error = failure(() => parseExample(spec).parse(records));
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.detail).toContain('Feature rt: values and partitions are not aligned');
  });
});

describe('ParseSingleExampleTest (parsing_ops_test.py), as a batch of one', () => {
  it('testSingleExampleWithAllFeatureTypes: the ragged features', () => {
    const record = serialize({
      c: float(3, 4),
      d: float(0, 1),
      val: bytes('a', 'b'),
      idx: int64(0, 3),
      st_a: float(3, 4),
      rt_1d: float(3, 4),
      rt_values: float(5, 6, 7),
      rt_splits: int64(0, 1, 1, 3),
      rt_lengths: int64(1, 0, 2),
      rt_starts: int64(0, 1, 1),
      rt_limits: int64(1, 1, 3),
      rt_rowids: int64(0, 2, 2),
      rt_splits2: int64(0, 2, 3),
    });
    const valueKey = 'rt_values';
    const batch = parseExample({
      st_a: varLen('float32'),
      sp: sparse({ indexKey: ['idx'], valueKey: 'val', dtype: 'string', size: [13] }),
      a: fixedLen([1, 3], 'int64', { default: [1, 2, 3] }),
      c: fixedLen([2], 'float32'),
      d: fixedLenSequence([], 'float32', { allowMissing: true }),
      rt_1d: ragged('float32'),
      rt_2d_with_splits: ragged('float32', { valueKey, partitions: [rowSplits('rt_splits')] }),
      rt_2d_with_lengths: ragged('float32', { valueKey, partitions: [rowLengths('rt_lengths')] }),
      rt_2d_with_starts: ragged('float32', { valueKey, partitions: [rowStarts('rt_starts')] }),
      rt_2d_with_limits: ragged('float32', { valueKey, partitions: [rowLimits('rt_limits')] }),
      rt_2d_with_rowids: ragged('float32', { valueKey, partitions: [valueRowIds('rt_rowids')] }),
      rt_2d_with_uniform_row_length: ragged('float32', { valueKey, partitions: [uniformRowLength(1)] }),
      rt_3d: ragged('float32', { valueKey, partitions: [rowSplits('rt_splits2'), rowSplits('rt_splits')] }),
      rt_3d_with_uniform_row_length: ragged('float32', {
        valueKey,
        partitions: [uniformRowLength(1), rowSplits('rt_splits')],
      }),
    }).parse([record]);
    expect(sparseTriple(batch.st_a)).toEqual([
      [
        [0, 0],
        [0, 1],
      ],
      [3, 4],
      [1, 2],
    ]);
    expect(sparseTriple(batch.sp)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
      ['a', 'b'],
      [1, 13],
    ]);
    expect(plain(batch.a)).toEqual([1, 2, 3]);
    expect(plain(batch.c)).toEqual([3, 4]);
    expect(plain(batch.d)).toEqual([0, 1]);
    expect(raggedList(batch.rt_1d)).toEqual([[3, 4]]);
    for (const name of ['splits', 'lengths', 'starts', 'limits', 'rowids'] as const) {
      expect(raggedList(batch[`rt_2d_with_${name}`])).toEqual([[[5], [], [6, 7]]]);
    }
    expect(raggedList(batch.rt_2d_with_uniform_row_length)).toEqual([[[5], [6], [7]]]);
    expect(raggedList(batch.rt_3d)).toEqual([[[[5], []], [[6, 7]]]]);
    expect(raggedList(batch.rt_3d_with_uniform_row_length)).toEqual([[[[5]], [[]], [[6, 7]]]]);
  });
});

describe('ParseSequenceExampleTest (parsing_ops_test.py): shape checks', () => {
  it('testFixedLenSequenceFeatureInvalidShapes', () => {
    expect(() => fixedLenSequence([0], 'float32')).toThrow(/need to be known and positive/);
    expect(() => fixedLenSequence([-1], 'float32')).toThrow(/need to be known and positive/);
  });
});
