/**
 * @module @tfpipe/core
 * The tf.train.Example model, its codec and JSON form, the WHATWG stream stages and the plugin
 * contract of tfpipe. Web-standard APIs and protobufjs only: it runs in Node and in browsers.
 */

// The Example model
export {
  bytes,
  float,
  int64,
  bytesList,
  floatList,
  int64List,
  emptyFeature,
  toInt64,
  featureLength,
} from './model/feature.js';
export type {
  Feature,
  FeatureKind,
  BytesFeature,
  FloatFeature,
  Int64Feature,
  EmptyFeature,
} from './model/feature.js';
export { example, sequenceExample, isSequenceExample } from './model/example.js';
export type { Example, SequenceExample, Features, PayloadType } from './model/example.js';

// Errors
export { TfpipeError, TFPIPE_ERROR_CODES, formatPosition } from './errors/tfpipe-error.js';
export type { TfpipeErrorCode, TfpipeErrorOptions, Position } from './errors/tfpipe-error.js';

// Path expansion: the one glob matcher and walker of every plugin (the file system is passed in)
export {
  compileGlob,
  isGlob,
  matchesGlob,
  MAX_GLOB_ALTERNATIVES,
  MAX_GLOB_LENGTH,
} from './paths/glob-pattern.js';
export type { CompiledGlob, GlobSegment } from './paths/glob-pattern.js';
export { expandGlob } from './paths/expand-glob.js';
export type { ExpandGlobOptions } from './paths/expand-glob.js';
export { checkReplacedName, joinPath, listDirectory, usableName } from './paths/list-directory.js';
export type { DirectoryEntry, DirectoryEntryBytes, ListingFileSystem } from './paths/list-directory.js';
export { decodeFileName, escapeFileName } from './paths/file-name.js';
export type { DecodedFileName } from './paths/file-name.js';

// The plugin contract
export {
  POSITION,
  REPORT,
  positionOf,
  withPosition,
  attachReport,
  reportOf,
} from './contract/plugin-contract.js';
export type {
  SourceFactory,
  StageFactory,
  SinkFactory,
  Positioned,
  OnError,
  RecordErrorOptions,
  ShardSummary,
  StageReport,
  Reporter,
} from './contract/plugin-contract.js';
export { RecordErrorPolicy, MAX_KEPT_ERRORS } from './contract/record-error-policy.js';
export {
  RELEASE,
  LENDS,
  PASSES_RELEASE,
  RELEASES,
  withRelease,
  releaseRecord,
  passRelease,
  markLending,
  lendingSwitch,
  lendIfSafe,
  releasesThrough,
} from './contract/lending.js';
export type { Releasable } from './contract/lending.js';

// Dataset statistics and reader specs
export { FeatureStatsCollector } from './stats/feature-stats.js';
export type { DatasetStats, FeatureStat, FeatureListStat } from './stats/feature-stats.js';
export { readerSpec } from './stats/reader-spec.js';
export type { ReaderSpec, FeatureParseSpec } from './stats/reader-spec.js';
export { tensorflowSpec, daliSpec } from './stats/python-spec.js';
export type { PythonSpecOptions } from './stats/python-spec.js';

// Text inputs: bounded linear line splitting, UTF-16 detection
export { LineSplitter } from './text/line-splitter.js';
export type { LineSplitterOptions } from './text/line-splitter.js';
export { utf16Evidence, utf16Advice } from './text/utf16-evidence.js';

// Exact fast number parsing, for sources with their own cell rules (CSV's Python spellings)
export { plainDecimal } from './stages/coerce-float.js';
export { smallInteger } from './stages/coerce-int64.js';

// Stages
export { buildExamples, exampleEncoder } from './stages/build-examples.js';
export type {
  BuildExamplesOptions,
  CellEncoder,
  ExampleSpecEntries,
  BuildExamplesStream,
  BuildExampleBatchesStream,
} from './stages/build-examples.js';
export { batch, unbatch } from './stages/batch.js';
export type { Batch } from './stages/batch.js';
export { buildSequenceExamples } from './stages/build-sequence-examples.js';
export type { SequenceSpec, BuildSequenceExamplesStream } from './stages/build-sequence-examples.js';
export type {
  ValueKind,
  MissingPolicy,
  FeatureOptions,
  FieldFeatureSpec,
  ComputedFeatureSpec,
  FeatureSpec,
  FeatureEntry,
  ExampleSpec,
  CheckedSpec,
} from './stages/example-spec.js';
export { pipeline, run } from './stages/pipeline.js';
export type { Pipeline, StageOf, SinkOf, Fits } from './stages/pipeline.js';
export { definePipeline } from './stages/define-pipeline.js';
export type { PipelineDefinition, ChainFits } from './stages/define-pipeline.js';
export type { RunSummary, RunOptions, Progress } from './stages/run-summary.js';
export { filterRows } from './stages/filter-rows.js';
export { mapRows } from './stages/map-rows.js';
export { take } from './stages/take.js';

// Codec
export { encodeExample, encodeSequenceExample, encodedLength, encodeInto } from './codec/encode-example.js';
export { EncodedExample, ENCODED, FRAME_HEADER_BYTES, FRAME_TRAILER_BYTES } from './codec/encoded-example.js';
export { copyBytes } from './codec/copy-bytes.js';
export { withCrc32c, knownCrc32c, collectCrcSpans, KNOWN_CRC_MIN_BYTES } from './codec/known-crc32c.js';
export {
  decodeExample,
  decodeSequenceExample,
  MIN_DECODED_BYTES,
  DECODED_BYTES_PER_RECORD_BYTE,
} from './codec/decode-example.js';
export type { DecodeOptions } from './codec/decode-example.js';
export {
  exampleToJson,
  sequenceExampleToJson,
  exampleToJsonText,
  sequenceExampleToJsonText,
} from './codec/example-to-json.js';
export type { ExampleJson, SequenceExampleJson, FeaturesJson, FeatureJson } from './codec/example-to-json.js';
export { exampleFromJson, sequenceExampleFromJson } from './codec/example-from-json.js';
export { floatToJson } from './codec/json-float.js';
export { jsonText } from './codec/json-text.js';
export { tfProto } from './codec/tf-proto.js';
export type { TfProto } from './codec/tf-proto.js';
export { serializeExamples } from './stages/serialize-examples.js';
export { parseExamples } from './stages/parse-examples.js';
export type { ParseExamplesOptions, SerializedRecord } from './stages/parse-examples.js';

// Plugin definitions for config files (Standard Schema options)
export { defineSourcePlugin, defineSinkPlugin } from './contract/plugin-definition.js';
export type {
  StandardSchemaV1,
  PluginContext,
  SinkPluginContext,
  DeferredOutput,
  OpenedSource,
  SourcePluginDefinition,
  SinkPluginDefinition,
  PluginDefinition,
} from './contract/plugin-definition.js';

// Declarative pipeline stages: shuffle, sample
export { seededRandom } from './stages/seeded-random.js';
export type { SeededRandom } from './stages/seeded-random.js';
export { shuffleBuffer } from './stages/shuffle-buffer.js';
export type { ShuffleBufferOptions } from './stages/shuffle-buffer.js';
export { sampleRows } from './stages/sample-rows.js';
export type { SampleRowsOptions } from './stages/sample-rows.js';
// Row features, for the declarative pipeline's expressions (in @tfpipe/pipeline)
export { isFeatureValue } from './stages/row-feature.js';
