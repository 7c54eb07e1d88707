import { readFile, writeFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import type { CsvKind } from './csv-values.js';

/**
 * What to write for an empty cell: `'omit'` leaves the feature out (TF's parse default then
 * applies, since defaults apply only to missing features); `'empty'` writes an empty list of the
 * column's kind; `'default'` writes the column's `default`; `'kindless'` writes a Feature with no
 * kind set, as TFX's CsvExampleGen does; `'error'` makes the row a `CSV_VALUE` record error.
 */
export type CsvMissing = 'omit' | 'empty' | 'default' | 'kindless' | 'error';

/** How one column becomes a feature. */
export interface CsvColumnSchema {
  /** The feature kind. A column with a `vocabulary` is `int64` (the ids). */
  readonly kind: CsvKind;
  /** int64 only: accept `true`/`false` (any case) and `1`/`0` as 1/0. @default false */
  readonly boolean?: boolean;
  /** Splits a cell at this separator into a list of values (plain split, no quoting). @default no split */
  readonly split?: string;
  /** What an empty cell becomes. @default the `missing` option of `csvFeatures`, itself 'omit' */
  readonly missing?: CsvMissing;
  /** The value(s) written for an empty cell when `missing` is 'default', as cell text or numbers. */
  readonly default?: string | number | readonly (string | number)[];
  /**
   * Maps string cells to int64 ids: the id is the index in the list. `'build'` collects the distinct
   * values of the whole input first (a separate pass over the files) and sorts them by code point.
   * A value not in the list is a `CSV_VALUE` record error.
   */
  readonly vocabulary?: readonly string[] | 'build';
}

/** A column given as a kind only, or in full. */
export type CsvColumnSchemaInput = CsvKind | (Partial<CsvColumnSchema> & { readonly kind?: CsvKind });

/**
 * A complete, JSON-serialisable schema, as `csvFeatures` reports it in `details.schema` and as
 * {@link saveSchema} writes it. Keys of `columns` are feature names (after renaming), in output order.
 * Passed back as the `schema` option it fixes every column: no sample is read, and a column not in it
 * is a `CSV_HEADER` error.
 */
export interface CsvSchema {
  readonly format: 'tfpipe-csv-schema';
  readonly version: 1;
  readonly columns: Readonly<Record<string, CsvColumnSchema>>;
}

/** The `schema` option: a full {@link CsvSchema}, or a partial map column → kind/spec (the rest inferred). */
export type CsvSchemaInput = CsvSchema | Readonly<Record<string, CsvColumnSchemaInput>>;

const KINDS: readonly string[] = ['int64', 'float', 'bytes'];
const MISSING: readonly string[] = ['omit', 'empty', 'default', 'kindless', 'error'];

/** True for a full schema (as saved), false for a partial map. */
export function isFullSchema(schema: CsvSchemaInput): schema is CsvSchema {
  return (schema as Partial<CsvSchema>).format === 'tfpipe-csv-schema';
}

function schemaError(message: string, field?: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `schema: ${message}`, {
    stage: 'csvFeatures',
    fatal: true,
    ...(field === undefined ? {} : { position: { field } }),
  });
}

/**
 * Checks one column spec and fills in what follows from it (a vocabulary implies int64).
 * @returns the spec with `kind` set, or with kind undefined when only options were given (to infer).
 * @throws TfpipeError `INVALID_OPTION`
 */
export function checkColumnSchema(name: string, input: CsvColumnSchemaInput): Partial<CsvColumnSchema> {
  const spec: Partial<CsvColumnSchema> = typeof input === 'string' ? { kind: input } : { ...input };
  if (typeof spec !== 'object' || spec === null)
    throw schemaError(`column ${JSON.stringify(name)} must be a kind or an object`, name);
  if (spec.kind !== undefined && !KINDS.includes(spec.kind)) {
    throw schemaError(
      `column ${JSON.stringify(name)} has kind ${JSON.stringify(spec.kind)}; use int64, float or bytes`,
      name,
    );
  }
  if (spec.vocabulary !== undefined) {
    if (
      spec.vocabulary !== 'build' &&
      !(Array.isArray(spec.vocabulary) && spec.vocabulary.every((item) => typeof item === 'string'))
    ) {
      throw schemaError(
        `column ${JSON.stringify(name)}: vocabulary must be an array of strings or 'build'`,
        name,
      );
    }
    if (Array.isArray(spec.vocabulary) && new Set(spec.vocabulary).size !== spec.vocabulary.length) {
      throw schemaError(`column ${JSON.stringify(name)}: vocabulary lists a value twice`, name);
    }
    if (spec.kind !== undefined && spec.kind !== 'int64')
      throw schemaError(`column ${JSON.stringify(name)}: a vocabulary column is int64`, name);
    (spec as { kind?: CsvKind }).kind = 'int64';
  }
  if (
    spec.boolean !== undefined &&
    (typeof spec.boolean !== 'boolean' || (spec.boolean && spec.kind !== 'int64'))
  ) {
    throw schemaError(
      `column ${JSON.stringify(name)}: boolean applies to int64 columns and must be true or false`,
      name,
    );
  }
  if (spec.split !== undefined && (typeof spec.split !== 'string' || spec.split === '')) {
    throw schemaError(`column ${JSON.stringify(name)}: split must be a non-empty string`, name);
  }
  if (spec.missing !== undefined && !MISSING.includes(spec.missing)) {
    throw schemaError(`column ${JSON.stringify(name)}: missing must be one of ${MISSING.join(', ')}`, name);
  }
  if (spec.missing === 'default' && spec.default === undefined) {
    throw schemaError(`column ${JSON.stringify(name)}: missing 'default' needs a default`, name);
  }
  return spec;
}

/**
 * Parses and checks a schema read from JSON (as {@link saveSchema} writes it).
 * @throws TfpipeError `CONFIG_SCHEMA`
 */
export function parseCsvSchema(json: unknown): CsvSchema {
  const value = json as Partial<CsvSchema> | null;
  if (
    typeof value !== 'object' ||
    value === null ||
    value.format !== 'tfpipe-csv-schema' ||
    value.version !== 1
  ) {
    throw new TfpipeError(
      'CONFIG_SCHEMA',
      'not a tfpipe CSV schema (expected format "tfpipe-csv-schema", version 1)',
      { fatal: true },
    );
  }
  if (typeof value.columns !== 'object' || value.columns === null) {
    throw new TfpipeError('CONFIG_SCHEMA', 'a CSV schema needs a columns object', { fatal: true });
  }
  const columns: Record<string, CsvColumnSchema> = {};
  for (const [name, spec] of Object.entries(value.columns)) {
    try {
      const checked = checkColumnSchema(name, spec);
      if (checked.kind === undefined || checked.vocabulary === 'build')
        throw schemaError(
          `column ${JSON.stringify(name)} needs a kind (and a built vocabulary, not 'build')`,
          name,
        );
      columns[name] = checked as CsvColumnSchema;
    } catch (error) {
      throw TfpipeError.is(error)
        ? new TfpipeError('CONFIG_SCHEMA', error.detail, { fatal: true, position: error.position })
        : error;
    }
  }
  return { format: 'tfpipe-csv-schema', version: 1, columns };
}

/** Writes a schema as pretty JSON (UTF-8) to `file`. */
export async function saveSchema(file: string, schema: CsvSchema): Promise<void> {
  await writeFile(file, `${JSON.stringify(schema, null, 2)}\n`, 'utf8');
}

/**
 * Reads a schema written by {@link saveSchema} (or by hand).
 * @throws TfpipeError `INPUT_NOT_FOUND`, `JSON_PARSE` or `CONFIG_SCHEMA`
 */
export async function loadSchema(file: string): Promise<CsvSchema> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TfpipeError('INPUT_NOT_FOUND', 'cannot read the schema file', {
      fatal: true,
      position: { file },
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TfpipeError('JSON_PARSE', 'the schema file is not JSON', {
      fatal: true,
      position: { file },
      cause: error,
    });
  }
  try {
    return parseCsvSchema(json);
  } catch (error) {
    throw TfpipeError.is(error) ? error.withPosition({ file }) : error;
  }
}
