/**
 * @module @tfpipe/core
 * For pipeline users: the tf.train.Example model, its codec and JSON form, the WHATWG stream stages,
 * `pipeline` / `run`, errors, positions and reports, and dataset statistics. Web-standard APIs
 * only: it runs in Node and in browsers. The protobufjs reference types are in
 * `@tfpipe/core/protobuf`, so this entry does not load protobufjs. Plugin authors also import
 * `@tfpipe/core/plugin`; tfpipe's own packages share performance protocols through
 * `@tfpipe/core/internal`.
 */

// The Example model
export { bytes, float, int64, bytesList, floatList, int64List, emptyFeature } from './model/feature.js';
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
export { TfpipeError, TFPIPE_ERROR_CODES } from './errors/tfpipe-error.js';
export type { TfpipeErrorCode, TfpipeErrorOptions, Position } from './errors/tfpipe-error.js';
export { registerErrorCodes, isErrorCode, errorCodes } from './errors/error-codes.js';
export type { TfpipeErrorCodes } from './errors/error-codes.js';

// Positions and reports: where a record or an error came from, what a stage did
export { positionOf, reportOf } from './contract/plugin-contract.js';
export type { OnError, RecordErrorOptions, ShardSummary, StageReport } from './contract/plugin-contract.js';

// Dataset statistics and reader specs
export { FeatureStatsCollector } from './stats/feature-stats.js';
export type { DatasetStats, FeatureStat, FeatureListStat } from './stats/feature-stats.js';
export { readerSpec } from './stats/reader-spec.js';
export type { ReaderSpec, FeatureParseSpec } from './stats/reader-spec.js';
export { tensorflowSpec, daliSpec } from './stats/python-spec.js';
export type { PythonSpecOptions } from './stats/python-spec.js';

// Stages
export { buildExamples } from './stages/build-examples.js';
export type {
  BuildExamplesOptions,
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
} from './stages/spec/example-spec.js';
export { pipeline, run } from './stages/run/pipeline.js';
export type { Pipeline, StageOf, SinkOf, Fits } from './stages/run/pipeline.js';
export { definePipeline } from './stages/run/define-pipeline.js';
export type { PipelineDefinition, ChainFits } from './stages/run/define-pipeline.js';
export type { RunSummary, RunOptions, Progress } from './stages/run/run-summary.js';
export { filterRows } from './stages/filter-rows.js';
export { mapRows } from './stages/map-rows.js';
export { take } from './stages/take.js';

// Codec
export { encodeExample, encodeSequenceExample } from './codec/encode-example.js';
export { decodeExample, decodeSequenceExample } from './codec/decode-example.js';
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
export { serializeExamples } from './stages/serialize-examples.js';
export { parseExamples } from './stages/parse-examples.js';
export type { ParseExamplesOptions, SerializedRecord } from './stages/parse-examples.js';

// Declarative pipeline stages: shuffle, sample (the rest of the declarative pipeline is @tfpipe/pipeline)
export { seededRandom } from './stages/sampling/seeded-random.js';
export type { SeededRandom } from './stages/sampling/seeded-random.js';
export { shuffleBuffer } from './stages/sampling/shuffle-buffer.js';
export type { ShuffleBufferOptions } from './stages/sampling/shuffle-buffer.js';
export { sampleRows } from './stages/sampling/sample-rows.js';
export type { SampleRowsOptions } from './stages/sampling/sample-rows.js';
