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

// The dataset pipeline
export { Dataset } from './pipeline/dataset.js';
export type { Chunks, OpenChunks, PassPosition } from './pipeline/chunks.js';
export type { MapFunction } from './pipeline/ops/map-chunks.js';
export type {
  Paddable,
  PaddableArray,
  PaddedBatch,
  PaddedBatchOptions,
  PaddedTensorOf,
} from './pipeline/ops/pad-batch.js';
export type {
  InterleaveOptions,
  ParseOptions,
  ShardOptions,
  ShuffleOptions,
} from './pipeline/dataset-options.js';
export { fromArray } from './pipeline/from-array.js';
export { tfrecordDataset, TfrecordDataset } from './tfrecord/tfrecord-dataset.js';
export type { TfrecordDatasetOptions, TfrecordDatasetSource } from './tfrecord/tfrecord-dataset.js';
export type { TfrecordFile, RecordIndex, RecordRange, WebTfrecordInput } from './tfrecord/tfrecord-file.js';
export type { TfRecord } from '@tfpipe/sink-tfrecord/web';

// Spec files and generated specs
export { specFromJson, specFromJsonText, specToJson } from './spec/spec-json.js';
export type {
  SpecJson,
  FeatureSpecJson,
  DefaultJson,
  RaggedPartitionJson,
  ParsedSpecJson,
} from './spec/spec-json.js';
export { specFromStats, specTypeScript, specTypeScriptFromStats } from './spec/spec-from-stats.js';
export type { GeneratedSpec, SpecTypeScriptOptions } from './spec/spec-from-stats.js';
// Images
export { decodeImage, decodeImages } from './image/decode-image-web.js';
export type { DecodeImage, ImageTensor } from './image/decode-image.js';
export type { DecodeImages, DecodeImagesOptions, WithImages } from './image/decode-images.js';
export type {
  DecodeImageOptions,
  ImageArray,
  ImageDtype,
  ImageFit,
  ImageKernel,
  ImageResize,
} from './image/image-options.js';
