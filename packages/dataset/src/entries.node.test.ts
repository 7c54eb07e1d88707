// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as dataset from '@tfpipe/dataset';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/dataset', () => {
  test('@tfpipe/dataset', async () => {
    expect(await exportSurface(packageDirectory, '.', dataset)).toMatchInlineSnapshot(`
      [
        "BatchOrigin: type",
        "DefaultScalar: type",
        "DefaultValue: type",
        "DenseTensor: type",
        "Dtype: type",
        "ExampleParseSpec: type",
        "ExampleParser: type",
        "FeatureSpec: type",
        "FixedLenOptions: type",
        "FixedLenSequenceOptions: type",
        "FixedLenSequenceSpec: type",
        "FixedLenSpec: type",
        "IntegerDtype: type",
        "ParsedBatch: type",
        "ParsedSequenceBatch: type",
        "RaggedOptions: type",
        "RaggedPartition: type",
        "RaggedSpec: type",
        "RaggedTensor: type",
        "SequenceExampleParser: type",
        "SequenceParseSpec: type",
        "SparseOptions: type",
        "SparseSpec: type",
        "SparseTensor: type",
        "Tensor: type",
        "TensorData: type",
        "TensorOf: type",
        "VarLenSpec: type",
        "fixedLen: function",
        "fixedLenSequence: function",
        "parseExample: function",
        "parseSequenceExample: function",
        "ragged: function",
        "rowLengths: function",
        "rowLimits: function",
        "rowSplits: function",
        "rowStarts: function",
        "sparse: function",
        "uniformRowLength: function",
        "valueRowIds: function",
        "varLen: function",
      ]
    `);
  });
});
