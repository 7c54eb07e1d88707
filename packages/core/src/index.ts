/**
 * @module @tfpipe/core
 * The tf.train.Example model, its codec and JSON form, the WHATWG stream stages and the plugin
 * contract of tfpipe. Web-standard APIs and protobufjs only: it runs in Node and in browsers.
 */

// The Example model
export { bytes, float, int64, emptyFeature, toInt64, featureLength } from './model/feature.js';
export type { Feature, FeatureKind, BytesFeature, FloatFeature, Int64Feature, EmptyFeature } from './model/feature.js';
export { example, sequenceExample, isSequenceExample } from './model/example.js';
export type { Example, SequenceExample, Features, PayloadType } from './model/example.js';

// Errors
export { TfpipeError, TFPIPE_ERROR_CODES, formatPosition } from './errors/tfpipe-error.js';
export type { TfpipeErrorCode, TfpipeErrorOptions, Position } from './errors/tfpipe-error.js';

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

// Dataset statistics and reader specs
export { FeatureStatsCollector } from './stats/feature-stats.js';
export type { DatasetStats, FeatureStat, FeatureListStat } from './stats/feature-stats.js';
export { readerSpec } from './stats/reader-spec.js';
export type { ReaderSpec, FeatureParseSpec } from './stats/reader-spec.js';
export { tensorflowSpec, daliSpec } from './stats/python-spec.js';
export type { PythonSpecOptions } from './stats/python-spec.js';
