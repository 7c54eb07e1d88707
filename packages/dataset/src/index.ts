/**
 * @module @tfpipe/dataset
 * Read TFRecord Examples into typed, batched tensors with TensorFlow's parse semantics:
 * `parseExample({ label: fixedLen([], 'int64'), … }).parse(records)` decodes a batch's wire bytes
 * straight into `BigInt64Array`s, `Float32Array`s and byte strings. Web-standard: runs in browsers.
 */

// Feature specs
export { fixedLen, varLen, sparse, ragged, fixedLenSequence } from './spec/feature-spec.js';
export type {
  FeatureSpec,
  ExampleParseSpec,
  FixedLenSpec,
  FixedLenOptions,
  VarLenSpec,
  SparseSpec,
  SparseOptions,
  RaggedSpec,
  RaggedOptions,
  FixedLenSequenceSpec,
  FixedLenSequenceOptions,
} from './spec/feature-spec.js';
export {
  rowSplits,
  rowLengths,
  rowStarts,
  rowLimits,
  valueRowIds,
  uniformRowLength,
} from './spec/ragged-partition.js';
export type { RaggedPartition } from './spec/ragged-partition.js';
export type { Dtype, IntegerDtype, TensorData, DefaultValue, DefaultScalar } from './spec/dtype.js';

// Tensors
export type { Tensor, DenseTensor, SparseTensor, RaggedTensor, TensorOf, ParsedBatch } from './tensor.js';

// Parsing
export { parseExample } from './parse/parse-example.js';
export type { ExampleParser } from './parse/parse-example.js';
export type { BatchOrigin } from './parse/record-position.js';
export { parseSequenceExample } from './parse/sequence/parse-sequence-example.js';
export type {
  SequenceExampleParser,
  SequenceParseSpec,
  ParsedSequenceBatch,
} from './parse/sequence/parse-sequence-example.js';
