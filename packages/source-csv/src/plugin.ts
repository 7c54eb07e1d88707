import { reportOf } from '@tfpipe/core';
import { defineSourcePlugin, optionsSchema } from '@tfpipe/core/plugin';
import type { z } from 'zod';
import { CSV_OPTIONS_STAGE, csvPluginSchema } from './csv-options-schema.js';
import { csvFeatures, csvToExamples } from './csv-features.js';
import type { CsvFeatureRow } from './csv-features.js';
import { loadSchema, type CsvSchema } from './csv-schema.js';
import { vocabularyFiles } from './vocabulary.js';

/** Drops keys whose value is `undefined` (zod's optional keys), for exactOptionalPropertyTypes. */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

/** Rows per batch when the plugin emits Examples: the stream cost is paid per batch. */
const EXAMPLE_BATCH = 1024;

/**
 * The options of the CSV source plugin in a pipeline file: `csvFeatures`' options but streams,
 * callbacks and tuning, plus `schemaFile` (a schema saved by `saveSchema`). The same schema checks
 * `csvSource` / `csvFeatures` in code, so an option is refused with the same message either way.
 */
export const csvSourceOptionsSchema = optionsSchema(CSV_OPTIONS_STAGE, csvPluginSchema);

/** Checked options of the CSV plugin. */
export type CsvSourcePluginOptions = z.output<ReturnType<typeof csvPluginSchema>>;

/** The schema the run resolved (its vocabularies built from the whole input), from the stream's report. */
function schemaOf(readable: object): CsvSchema | undefined {
  return reportOf(readable)?.details?.schema as CsvSchema | undefined;
}

/**
 * `@tfpipe/source-csv` as a config-file source: `{ "plugin": "@tfpipe/source-csv", "options":
 * { "path": "iris.csv", "label": "species" } }`. Rows are typed feature rows (`csvFeatures`):
 * kinds inferred with TFX's rules unless `schema` / `schemaFile` says; without a pipeline `spec`
 * every column becomes a feature. Its side files are the vocabularies of string label columns
 * (`vocabulary-<feature>.txt`). When no stage reads the rows' fields (no spec, transform or
 * split), it emits the Examples themselves, encoded from the cells in batches (`csvToExamples`).
 */
export const plugin = defineSourcePlugin<CsvSourcePluginOptions, CsvFeatureRow>({
  kind: 'source',
  name: '@tfpipe/source-csv',
  description: 'CSV/TSV files with inferred or explicit column kinds',
  options: csvSourceOptionsSchema,
  output: 'rows',
  async create(options, context) {
    const { path, paths, schemaFile, schema, columns, ...rest } = defined(options);
    const loaded = schemaFile === undefined ? schema : await loadSchema(context.resolvePath(schemaFile));
    const features = {
      ...rest,
      ...(path === undefined ? {} : { path: context.resolvePath(path) }),
      ...(paths === undefined ? {} : { paths: paths.map((item) => context.resolvePath(item)) }),
      ...(loaded === undefined ? {} : { schema: loaded as never }),
      ...(columns === undefined ? {} : { columns: defined(columns) }),
      onError: context.onError,
    };
    // Nothing reads the rows' fields: encode each row straight from its cells, in batches.
    if (context.fieldsRead === false) {
      const examples = csvToExamples({ ...features, batchSize: EXAMPLE_BATCH });
      // `output` tells the runner these chunks are batches of Examples; the Row type names the rows
      // that transforms see, which they see only when fields are read.
      return {
        readable: examples as unknown as ReadableStream<CsvFeatureRow>,
        output: 'examples',
        sideFiles: () => vocabularyFiles(schemaOf(examples)),
      };
    }
    const readable = csvFeatures(features);
    return { readable, sideFiles: () => vocabularyFiles(schemaOf(readable)) };
  },
});
