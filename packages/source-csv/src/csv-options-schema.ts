import type { TfpipeError } from '@tfpipe/core';
import { checkOptions } from '@tfpipe/core/plugin';
import type { OptionsFit, RequireTrue } from '@tfpipe/core/plugin';
import {
  namedOnce,
  optionErrorPolicy,
  optionFlag,
  optionName,
  optionNames,
  optionPaths,
  optionsObject,
  optionWholeNumber,
  type OptionRuleIssue,
  z,
} from '@tfpipe/node-utils/options';
import type { CsvFeaturesOptions } from './csv-features.js';
import type { CsvSourceOptions } from './csv-source-options.js';

/** The stage every CSV option error names, from code or from a pipeline file. */
export const CSV_OPTIONS_STAGE = 'csvSource';

/** One character other than a newline (a delimiter, quote or escape). */
function character() {
  return z
    .string({ error: 'expected one character other than a newline' })
    .refine((value) => value.length === 1 && value !== '\n' && value !== '\r', {
      error: 'expected one character other than a newline',
    });
}

/** The options a pipeline file can give too: everything but streams, callbacks and tuning. */
function sharedShape() {
  return {
    path: optionName(),
    paths: optionPaths(),
    delimiter: character(),
    quote: character(),
    escape: character(),
    header: z.union([optionFlag(), optionNames('column names')], {
      error: 'expected true, false or a list of column names',
    }),
    comment: optionName(),
    skipEmptyLines: optionFlag(),
    allowEmpty: optionFlag(),
    maxRecordLength: optionWholeNumber(1),
    columns: z.strictObject(
      {
        rename: z
          .record(z.string(), optionName(), { error: 'expected an object of old name → new name' })
          .optional(),
        drop: optionNames('column names').optional(),
        keep: optionNames('column names').optional(),
      },
      { error: 'expected an object of rename, drop, keep' },
    ),
  };
}

/** Options only code can give (a stream, callbacks, batches). */
function codeShape() {
  return {
    stream: z.custom<ReadableStream<Uint8Array>>(
      (value) => typeof (value as { getReader?: unknown } | null)?.getReader === 'function',
      { error: 'expected a ReadableStream of bytes' },
    ),
    fileName: z.string({ error: 'expected a string' }),
    streamStart: z.strictObject(
      {
        line: optionWholeNumber(1),
        row: optionWholeNumber(0),
      },
      { error: 'expected { line, row }' },
    ),
    encoding: z.custom<'utf-8'>((value) => typeof value === 'string' && value.toLowerCase() === 'utf-8', {
      error: "expected 'utf-8'",
    }),
    batchSize: optionWholeNumber(1),
    ...optionErrorPolicy<TfpipeError>(),
  };
}

/** `csvFeatures` options beyond the source's, that a pipeline file gives too. */
function featuresShape() {
  return {
    schema: z.record(z.string(), z.unknown(), { error: 'expected an object of column → kind or spec' }),
    inferRows: z.union([z.int().min(0), z.literal('all'), z.literal(Infinity)], {
      error: 'expected a whole number ≥ 0 or "all"',
    }),
    missing: z.enum(['omit', 'empty', 'kindless', 'error'], {
      error: 'expected "omit", "empty", "kindless" or "error" ("default" needs a per-column default)',
    }),
    label: optionName(),
  };
}

/** `threads`: 1, 2 or 'auto'. */
function threads() {
  return z.union([z.literal(1), z.literal(2), z.literal('auto')], { error: 'expected 1, 2 or "auto"' });
}

/** The rules between keys: one input, a delimiter other than the quote, each header name once. */
function rulesBetweenKeys(value: Record<string, unknown>): OptionRuleIssue[] {
  const issues: OptionRuleIssue[] = [];
  const inputs = ['path', 'paths', 'stream'].filter((key) => value[key] !== undefined);
  // One wording for code and pipeline files, though only code can give a stream.
  if (inputs.length !== 1) issues.push({ message: 'expected exactly one of path, paths, stream' });
  if (value.delimiter !== undefined && value.delimiter === (value.quote ?? '"')) {
    issues.push({ path: ['delimiter'], message: 'expected a character other than quote' });
  }
  issues.push(...namedOnce(value.header, 'header'));
  return issues;
}

/** Every key optional, unknown keys refused, and the rules between keys. */
function csvObject<S extends Record<string, z.ZodType>>(shape: S) {
  return optionsObject(shape, rulesBetweenKeys);
}

let sourceSchema: ReturnType<typeof buildSourceSchema> | undefined;
let featuresSchema: ReturnType<typeof buildFeaturesSchema> | undefined;
let pluginSchema: ReturnType<typeof buildPluginSchema> | undefined;

function buildSourceSchema() {
  return csvObject({ ...sharedShape(), ...codeShape() });
}
function buildFeaturesSchema() {
  return csvObject({
    ...sharedShape(),
    ...codeShape(),
    ...featuresShape(),
    byteParser: optionFlag(),
    chunkBytes: optionWholeNumber(1),
    threads: threads(),
  });
}
function buildPluginSchema() {
  return csvObject({ ...sharedShape(), ...featuresShape(), schemaFile: optionName(), threads: threads() });
}

/** The schema of `csvSource`'s options, built on first use (zod's construction cost is paid once). */
export function csvSourceSchema(): ReturnType<typeof buildSourceSchema> {
  return (sourceSchema ??= buildSourceSchema());
}

/** The schema of `csvFeatures` / `csvToExamples` options, built on first use. */
export function csvFeaturesSchema(): ReturnType<typeof buildFeaturesSchema> {
  return (featuresSchema ??= buildFeaturesSchema());
}

/** The schema of the CSV plugin's options in a pipeline file, built on first use. */
export function csvPluginSchema(): ReturnType<typeof buildPluginSchema> {
  return (pluginSchema ??= buildPluginSchema());
}

/** Checks `csvSource` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkCsvSourceOptions(options: unknown): void {
  checkOptions(csvSourceSchema(), options, CSV_OPTIONS_STAGE);
}

/** Checks `csvFeatures` / `csvToExamples` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkCsvFeaturesOptions(options: unknown): void {
  checkOptions(csvFeaturesSchema(), options, CSV_OPTIONS_STAGE);
}

// The documented option types must be the schemas' keys, and what a schema lets through must fit them.
/** Compiles only while the documented option types and the schemas agree (see `OptionsFit`). */
export type CsvOptionTypesFit = [
  RequireTrue<OptionsFit<z.output<ReturnType<typeof buildSourceSchema>>, CsvSourceOptions>>,
  RequireTrue<OptionsFit<z.output<ReturnType<typeof buildFeaturesSchema>>, CsvFeaturesOptions>>,
];
