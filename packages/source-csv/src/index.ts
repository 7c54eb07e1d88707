/**
 * @module @tfpipe/source-csv
 * CSV files to rows and tf.train.Examples: a streaming RFC 4180 parser with exact line numbers,
 * inferred or explicit schemas (exact int64), vocabularies, and TFX CsvExampleGen-compatible types.
 */
export { csvSource } from './csv-source.js';
export type { CsvRow } from './csv-source.js';
export type { CsvSourceOptions, CsvColumnsOptions } from './csv-source-options.js';
export { csvFeatures, csvToExamples, inferCsvSchema, csvExampleSpec } from './csv-features.js';
export type { CsvFeaturesOptions, CsvFeatureRow } from './csv-features.js';
export { saveSchema, loadSchema, parseCsvSchema } from './csv-schema.js';
export type {
  CsvSchema,
  CsvSchemaInput,
  CsvColumnSchema,
  CsvColumnSchemaInput,
  CsvMissing,
} from './csv-schema.js';
export type { CsvKind } from './csv-values.js';
export { saveVocabularies, vocabularyFiles } from './vocabulary.js';
export { csvSplitPoints } from './csv-split-points.js';
export type { CsvSplitPoints, CsvSplitPointsOptions } from './csv-split-points.js';
export { plugin, csvSourceOptionsSchema } from './plugin.js';
export type { CsvSourcePluginOptions } from './plugin.js';
