import type { TfpipeError } from '@tfpipe/core';
import { checkOptions } from '@tfpipe/core/plugin';
import type { OptionsFit, RequireTrue } from '@tfpipe/core/plugin';
import type { AsyncBuffer } from 'hyparquet';
import {
  optionErrorPolicy,
  optionName,
  optionNames,
  optionPaths,
  optionOneOf,
  optionsObject,
  optionWholeNumber,
  type OptionRuleIssue,
  z,
} from '@tfpipe/node-utils/options';
import { isAsyncBuffer, isBlob } from './blob-async-buffer.js';
import type { ParquetReadOptions } from './parquet-read-options.js';
import type { ParquetSchemaOptions } from './parquet-schema.js';
import type { ParquetSourceOptions } from './node/parquet-source.js';
import type { ParquetBufferSourceOptions } from './web/parquet-source.js';

/** The stage every Parquet option error names, from code or from a pipeline file. */
export const PARQUET_OPTIONS_STAGE = 'parquetSource';

/** The mapping options `parquetSchema` takes too. */
function mappingShape() {
  return {
    columns: optionNames('column names').min(1, { error: 'expected at least one column name' }),
    decimal: optionOneOf(['float', 'text']),
    timestampUnit: optionOneOf(['s', 'ms', 'us', 'ns']),
    separator: optionName(),
    nested: optionOneOf(['error', 'parallel']),
  };
}

/** The read options a pipeline file can give too (the plugin chooses the batches itself). */
function readShape() {
  return {
    ...mappingShape(),
    rowGroups: z.array(optionWholeNumber(0), { error: 'expected a list of row group indexes' }),
    rowStart: optionWholeNumber(0),
    rowEnd: optionWholeNumber(0),
    decodeRows: optionWholeNumber(1),
    maxColumnChunkBytes: optionWholeNumber(1),
    maxPageBytes: optionWholeNumber(1),
  };
}

/** Files by path (Node). */
function pathShape() {
  return {
    path: optionName(),
    paths: optionPaths(),
  };
}

/** The bytes of one file, and the name positions give it. */
function fileShape() {
  return {
    file: z.custom<AsyncBuffer | Blob>((value) => isBlob(value) || isAsyncBuffer(value), {
      error: 'expected a Blob, a File, an ArrayBuffer or an AsyncBuffer',
    }),
    name: z.string({ error: 'expected a string' }),
  };
}

/** Options only code can give (batches, callbacks). */
function codeShape() {
  return {
    batchSize: optionWholeNumber(1),
    ...optionErrorPolicy<TfpipeError>(),
  };
}

/** The rules between keys: exactly one of `inputs` (when there are), rows in order. */
function rulesBetweenKeys(inputs: readonly string[]) {
  return (value: Record<string, unknown>): OptionRuleIssue[] => {
    const issues: OptionRuleIssue[] = [];
    const given = inputs.filter((key) => value[key] !== undefined);
    if (inputs.length > 0 && given.length !== 1) {
      issues.push({
        message:
          inputs.length === 1 ? `expected ${inputs[0]}` : `expected exactly one of ${inputs.join(', ')}`,
      });
    }
    const { rowStart, rowEnd } = value;
    if (typeof rowEnd === 'number' && rowEnd < (typeof rowStart === 'number' ? rowStart : 0)) {
      issues.push({ path: ['rowEnd'], message: `expected a row at or after rowStart (${String(rowStart)})` });
    }
    return issues;
  };
}

/** Every key optional, unknown keys refused, and the rules between keys. */
function parquetObject<S extends Record<string, z.ZodType>>(shape: S, inputs: readonly string[]) {
  return optionsObject(shape, rulesBetweenKeys(inputs));
}

let sourceSchema: ReturnType<typeof buildSourceSchema> | undefined;
let bufferSchema: ReturnType<typeof buildBufferSchema> | undefined;
let readerSchema: ReturnType<typeof buildReaderSchema> | undefined;
let mappingSchema: ReturnType<typeof buildMappingSchema> | undefined;
let pluginSchema: ReturnType<typeof buildPluginSchema> | undefined;

function buildSourceSchema() {
  return parquetObject({ ...pathShape(), ...fileShape(), ...readShape(), ...codeShape() }, [
    'path',
    'paths',
    'file',
  ]);
}
function buildBufferSchema() {
  return parquetObject({ ...fileShape(), ...readShape(), ...codeShape() }, ['file']);
}
function buildReaderSchema() {
  return parquetObject({ ...readShape(), ...codeShape() }, []);
}
function buildMappingSchema() {
  return parquetObject({ ...mappingShape(), name: fileShape().name }, []);
}
function buildPluginSchema() {
  return parquetObject(
    { ...pathShape(), ...readShape(), missing: optionOneOf(['omit', 'empty', 'error']) },
    // One wording for code and pipeline files, though only code can give a file's bytes.
    ['path', 'paths', 'file'],
  );
}

/** The schema of the Parquet plugin's options in a pipeline file, built on first use. */
export function parquetPluginSchema(): ReturnType<typeof buildPluginSchema> {
  return (pluginSchema ??= buildPluginSchema());
}

/** Checks the Node `parquetSource` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkParquetSourceOptions(options: unknown): void {
  checkOptions((sourceSchema ??= buildSourceSchema()), options, PARQUET_OPTIONS_STAGE);
}

/** Checks the browser `parquetSource` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkParquetBufferOptions(options: unknown): void {
  checkOptions((bufferSchema ??= buildBufferSchema()), options, PARQUET_OPTIONS_STAGE);
}

/** Checks `createParquetSource` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkParquetReaderOptions(options: unknown): void {
  checkOptions((readerSchema ??= buildReaderSchema()), options, PARQUET_OPTIONS_STAGE);
}

/** Checks `parquetSchema` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkParquetSchemaOptions(options: unknown): void {
  checkOptions((mappingSchema ??= buildMappingSchema()), options, 'parquetSchema');
}

// The documented option types must be the schemas' keys, and what a schema lets through must fit them.
/** Compiles only while the documented option types and the schemas agree (see `OptionsFit`). */
export type ParquetOptionTypesFit = [
  RequireTrue<OptionsFit<z.output<ReturnType<typeof buildSourceSchema>>, ParquetSourceOptions>>,
  RequireTrue<OptionsFit<z.output<ReturnType<typeof buildBufferSchema>>, ParquetBufferSourceOptions>>,
  RequireTrue<OptionsFit<z.output<ReturnType<typeof buildReaderSchema>>, ParquetReadOptions>>,
  RequireTrue<OptionsFit<z.output<ReturnType<typeof buildMappingSchema>>, ParquetSchemaOptions>>,
];
