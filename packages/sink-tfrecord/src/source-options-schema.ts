import type { PayloadType, TfpipeError } from '@tfpipe/core';
import { checkOptions } from '@tfpipe/core/plugin';
import type { OptionsFit, RequireTrue } from '@tfpipe/core/plugin';
import {
  optionErrorPolicy,
  optionName,
  optionNames,
  optionOneOf,
  optionWholeNumber,
  z,
} from '@tfpipe/node-utils/options';
import { MAX_RECORD_BYTES_LIMIT } from './record-unframer.js';
import type { TfrecordSourceOptions } from './tfrecord-source.js';

/** The stage every TFRecord source option error names, from code or from a pipeline file. */
export const SOURCE_OPTIONS_STAGE = 'tfrecordSource';

/**
 * A path or glob, or a list of them.
 * @param least - the fewest paths a list holds (code may pass an empty list and read nothing).
 */
function paths(least: number) {
  return z.union([optionName(), optionNames('paths').min(least)], {
    error: 'expected a path or glob, or a list of them',
  });
}

/**
 * `paths` (required) and `shape`'s options (each optional), unknown keys refused.
 * @param least - the fewest paths a list holds (code may pass an empty list and read nothing).
 */
function withPaths<S extends Record<string, z.ZodType>>(least: number, shape: S) {
  const optional = Object.fromEntries(Object.entries(shape).map(([key, type]) => [key, type.optional()]));
  return z.strictObject({
    paths: paths(least),
    ...(optional as { [K in keyof S]: z.ZodOptional<S[K]> }),
  });
}

/** The options a pipeline file can give too. */
function sharedShape() {
  return {
    compression: optionOneOf(['auto', 'none', 'gzip', 'zlib']),
    maxRecordBytes: optionWholeNumber(0, MAX_RECORD_BYTES_LIMIT),
  };
}

let sourceSchema: ReturnType<typeof buildSourceSchema> | undefined;
let pluginSchema: ReturnType<typeof buildPluginSchema> | undefined;

function buildSourceSchema() {
  return withPaths(0, {
    ...sharedShape(),
    highWaterMark: optionWholeNumber(0),
    chunkBytes: optionWholeNumber(1),
    ...optionErrorPolicy<TfpipeError>(),
  });
}
function buildPluginSchema() {
  const payloadType = optionOneOf(['Example', 'SequenceExample']) as z.ZodType<PayloadType>;
  return withPaths(1, { ...sharedShape(), payloadType });
}

/** The schema of the TFRecord source plugin's options in a pipeline file, built on first use. */
export function sourcePluginSchema(): ReturnType<typeof buildPluginSchema> {
  return (pluginSchema ??= buildPluginSchema());
}

/** Checks `tfrecordSource` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkTfrecordSourceOptions(options: unknown): void {
  checkOptions((sourceSchema ??= buildSourceSchema()), options, SOURCE_OPTIONS_STAGE);
}

// The documented option type must be the schema's keys, and what the schema lets through must fit it.
/** Compiles only while the documented option type and the schema agree (see `OptionsFit`). */
export type SourceOptionTypesFit = RequireTrue<
  OptionsFit<z.output<ReturnType<typeof buildSourceSchema>>, TfrecordSourceOptions>
>;
