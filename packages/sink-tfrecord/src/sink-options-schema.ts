import type { PayloadType, TfpipeError } from '@tfpipe/core';
import { checkOptions } from '@tfpipe/core/plugin';
import type { DeferredOutput, OptionsFit, RequireTrue } from '@tfpipe/core/plugin';
import {
  optionErrorPolicy,
  optionFlag,
  optionFunction,
  optionName,
  optionOneOf,
  optionsObject,
  optionWholeNumber,
  type OptionRuleIssue,
  z,
} from '@tfpipe/node-utils/options';
import type { TfrecordSinkOptions } from './sink-options.js';

/** The stage every sink option error names, from code or from a pipeline file. */
export const SINK_OPTIONS_STAGE = 'tfrecordSink';

/** The smallest write buffer, in bytes. */
const MIN_BUFFER_BYTES = 64 * 1024;

/** The options a pipeline file can give too: everything but callbacks and what the run decides. */
function sharedShape() {
  return {
    path: optionName(),
    directory: optionName(),
    prefix: optionName().refine((value) => !value.includes('/') && !value.startsWith('.'), {
      error: "expected a plain file name start (no '/', not hidden)",
    }),
    maxRecords: optionWholeNumber(1),
    maxBytes: optionWholeNumber(1),
    shards: optionWholeNumber(1),
    suffix: z
      .string({ error: 'expected a file name suffix' })
      .refine((value) => !value.includes('/'), { error: "expected a file name suffix (no '/')" }),
    compression: optionOneOf(['none', 'gzip', 'zlib']),
    level: optionWholeNumber(0, 9),
    overwrite: optionFlag(),
    index: optionFlag(),
    manifest: optionFlag(),
    bufferBytes: optionWholeNumber(MIN_BUFFER_BYTES),
    fsync: optionFlag(),
    crcThread: optionFlag(),
  };
}

/** Options only code can give (callbacks, and what a pipeline run decides itself). */
function codeShape() {
  return {
    payloadType: optionOneOf(['Example', 'SequenceExample']) as z.ZodType<PayloadType>,
    deferOutput: optionFunction<(output: DeferredOutput) => void>(),
    ...optionErrorPolicy<TfpipeError>(),
  };
}

/** The compression a file name ending in `.gz` or `.zz` says, else undefined. */
export function compressionOfName(name: string): 'gzip' | 'zlib' | undefined {
  if (name.endsWith('.gz')) return 'gzip';
  if (name.endsWith('.zz')) return 'zlib';
  return undefined;
}

/** The rules between keys: one output, sharding that fits it, a compression its name agrees with. */
function rulesBetweenKeys(value: Record<string, unknown>): OptionRuleIssue[] {
  const issues: OptionRuleIssue[] = [];
  const given = (key: string) => value[key] !== undefined;
  if (given('path') === given('directory')) {
    issues.push({ message: 'expected exactly one of path (one file), directory (sharded output)' });
  } else if (given('path')) {
    for (const key of ['prefix', 'maxRecords', 'maxBytes', 'shards', 'suffix']) {
      if (given(key)) issues.push({ path: [key], message: 'expected no such option with path (one file)' });
    }
  }
  if (given('shards')) {
    for (const key of ['maxRecords', 'maxBytes']) {
      if (given(key)) issues.push({ path: [key], message: 'expected no such option with shards' });
    }
  }
  const which = given('path') ? 'path' : 'suffix';
  const named = typeof value[which] === 'string' ? compressionOfName(value[which]) : undefined;
  const compression = value.compression as string | undefined;
  if (named !== undefined && compression !== undefined && compression !== named) {
    issues.push({
      path: ['compression'],
      message: `expected ${JSON.stringify(named)}, which the ${which} ${JSON.stringify(value[which])} says`,
    });
  }
  if (value.index === true && (compression ?? named ?? 'none') !== 'none') {
    issues.push({
      path: ['index'],
      message: `expected no index for ${compression ?? named} output (byte offsets mean nothing inside a compressed stream)`,
    });
  }
  return issues;
}

let sinkSchema: ReturnType<typeof buildSinkSchema> | undefined;
let pluginSchema: ReturnType<typeof buildPluginSchema> | undefined;

function buildSinkSchema() {
  return optionsObject({ ...sharedShape(), ...codeShape() }, rulesBetweenKeys);
}
function buildPluginSchema() {
  return optionsObject(sharedShape(), rulesBetweenKeys);
}

/** The schema of the sink plugin's options in a pipeline file, built on first use. */
export function sinkPluginSchema(): ReturnType<typeof buildPluginSchema> {
  return (pluginSchema ??= buildPluginSchema());
}

/** Checks `tfrecordSink` / `createTfrecordWriter` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkSinkOptions(options: unknown): void {
  checkOptions((sinkSchema ??= buildSinkSchema()), options, SINK_OPTIONS_STAGE);
}

// The documented option type must be the schema's keys, and what the schema lets through must fit it.
/** Compiles only while the documented option type and the schema agree (see `OptionsFit`). */
export type SinkOptionTypesFit = RequireTrue<
  OptionsFit<z.output<ReturnType<typeof buildSinkSchema>>, TfrecordSinkOptions>
>;
