/**
 * @module @tfpipe/source-parquet/web
 * The browser-safe part of @tfpipe/source-parquet (no `node:*`): read a Parquet `Blob`, `File` or
 * `AsyncBuffer` as tfpipe rows, and map its footer to a feature schema.
 */
export { parquetSource } from './web/parquet-source.js';
export type { ParquetBufferSourceOptions } from './web/parquet-source.js';
export { parquetSchema } from './parquet-schema.js';
export type { ParquetSchemaOptions } from './parquet-schema.js';
export { asyncBufferFromBlob } from './blob-async-buffer.js';
export { createParquetSource } from './create-parquet-source.js';
export type { ParquetRow, ParquetChunk, ParquetInput, OpenedParquetInput } from './create-parquet-source.js';
export { parquetExampleSpec } from './parquet-example-spec.js';
export type { ParquetExampleSpecOptions, ParquetFeatureSpec, MissingPolicy } from './parquet-example-spec.js';
export type { ParquetSchema, ParquetFeature, ParquetUnsupportedColumn } from './parquet-schema-types.js';
export type { ParquetReadOptions, TimestampUnit, DecimalMode, NestedMode } from './parquet-read-options.js';
export type { ParquetFeatureKind, ParquetValueUnit } from './describe-leaf.js';
