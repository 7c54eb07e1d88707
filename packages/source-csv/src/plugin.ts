import { reportOf } from '@tfpipe/core';
import { defineSourcePlugin } from '@tfpipe/core/plugin';
import { z } from 'zod';
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

const name = z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' });
const character = z
  .string({ error: 'expected one character' })
  .length(1, { error: 'expected one character' });
const flag = z.boolean({ error: 'expected true or false' });

/** The options of the CSV source plugin in a config file. */
export const csvSourceOptionsSchema = z.strictObject({
  path: name.optional(),
  paths: z.array(name, { error: 'expected a list of paths' }).min(1).optional(),
  delimiter: character.optional(),
  quote: character.optional(),
  escape: character.optional(),
  header: z
    .union([flag, z.array(name)], { error: 'expected true, false or a list of column names' })
    .optional(),
  comment: name.optional(),
  skipEmptyLines: flag.optional(),
  allowEmpty: flag.optional(),
  /** Characters one record may hold before `RECORD_TOO_LARGE` (csvSource's option; `--max-record-length`). */
  maxRecordLength: z
    .int({ error: 'expected a whole number ≥ 1' })
    .min(1, { error: 'expected a whole number ≥ 1' })
    .optional(),
  columns: z
    .strictObject({
      rename: z.record(z.string(), name, { error: 'expected an object of old name → new name' }).optional(),
      drop: z.array(name, { error: 'expected a list of column names' }).optional(),
      keep: z.array(name, { error: 'expected a list of column names' }).optional(),
    })
    .optional(),
  /** Column → kind or column spec, as in `csvFeatures({ schema })`. */
  schema: z
    .record(z.string(), z.unknown(), { error: 'expected an object of column → kind or spec' })
    .optional(),
  /** A schema file saved by `saveSchema` (a previous run's schema.json). */
  schemaFile: name.optional(),
  inferRows: z
    .union([z.int().min(0), z.literal('all')], { error: 'expected a whole number ≥ 0 or "all"' })
    .optional(),
  missing: z
    .enum(['omit', 'empty', 'kindless', 'error'], {
      error: 'expected "omit", "empty", "kindless" or "error"',
    })
    .optional(),
  label: name.optional(),
});

/** Checked options of the CSV plugin. */
export type CsvSourcePluginOptions = z.infer<typeof csvSourceOptionsSchema>;

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
