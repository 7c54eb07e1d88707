/**
 * @module @tfpipe/source-parquet
 * Parquet files to tfpipe rows, read with hyparquet: row group by row group, only the selected
 * columns, with a footer-derived feature schema and exact int64s. This entry adds paths,
 * directories and globs (Node); `@tfpipe/source-parquet/web` is the browser-safe subset.
 */
export { parquetSource } from './node/parquet-source.js';
export type { ParquetSourceOptions } from './node/parquet-source.js';
export { parquetSchema } from './node/parquet-schema.js';
export { asyncBufferFromBlob } from './blob-async-buffer.js';
export { createParquetSource } from './create-parquet-source.js';
export type { ParquetRow, ParquetChunk, ParquetInput, OpenedParquetInput } from './create-parquet-source.js';
export { parquetExampleSpec } from './parquet-example-spec.js';
export type { ParquetExampleSpecOptions, ParquetFeatureSpec, MissingPolicy } from './parquet-example-spec.js';
export type { ParquetSchemaOptions } from './parquet-schema.js';
export type { ParquetSchema, ParquetFeature, ParquetUnsupportedColumn } from './parquet-schema-types.js';
export type { ParquetReadOptions, TimestampUnit, DecimalMode, NestedMode } from './parquet-read-options.js';
export type { ParquetFeatureKind, ParquetValueUnit } from './describe-leaf.js';
export { plugin, parquetSourceOptionsSchema } from './plugin.js';
export type { ParquetSourcePluginOptions } from './plugin.js';
