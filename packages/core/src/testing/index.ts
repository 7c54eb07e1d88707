/**
 * @module @tfpipe/core/testing
 * Stream helpers and the conformance suites every tfpipe source and sink runs. The suites register
 * with vitest (an optional peer dependency of `@tfpipe/core`, needed by this entry); their checks are
 * also exported as plain functions (`sourceChecks`, `sinkChecks`).
 */
export { fromArray } from './from-array.js';
export type { FromArrayOptions } from './from-array.js';
export { collect } from './collect.js';
export { rejectionOf } from './rejection.js';
export { lendingSource, releasingSink } from './lending-fixtures.js';
export type { LendingRow } from './lending-fixtures.js';
export { slowSink } from './slow-sink.js';
export type { CollectingSink } from './slow-sink.js';
export { sourceChecks } from './source-checks.js';
export type { SourceSuiteOptions, OrderedFixture, BadFixture } from './source-checks.js';
export { sinkChecks } from './sink-checks.js';
export type { SinkSuiteOptions } from './sink-checks.js';
export { testSource, testSink } from './test-suites.js';
export { ConformanceError } from './conformance-check.js';
export type { ConformanceCheck } from './conformance-check.js';
export { activeFileResources } from './open-handles.js';
export { randomTable } from './random-table.js';
export type {
  Table,
  TableCell,
  TableColumn,
  TableKind,
  TableValue,
  RandomTableOptions,
} from './random-table.js';
export { protobufjsFeatures, expectedFeatures } from './protobufjs-features.js';
export type { PlainFeature } from './protobufjs-features.js';
