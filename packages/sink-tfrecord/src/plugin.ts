import { attachReport, defineSinkPlugin, defineSourcePlugin, optionsSchema } from '@tfpipe/core/plugin';
import { mapRows, reportOf, TfpipeError, type StageReport } from '@tfpipe/core';
import type { z } from '@tfpipe/node-utils/options';
import { SINK_OPTIONS_STAGE, sinkPluginSchema } from './sink-options-schema.js';
import { SOURCE_OPTIONS_STAGE, sourcePluginSchema } from './source-options-schema.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';

/** Drops keys whose value is `undefined` (zod's optional keys), for exactOptionalPropertyTypes. */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

/**
 * The options of the `tfrecordSink` plugin in a pipeline file: `tfrecordSink`'s options but
 * callbacks and what the run decides (`payloadType`, `onError`). The same definitions check
 * `tfrecordSink` in code, so an option is refused with the same message either way.
 */
export const tfrecordSinkOptionsSchema = optionsSchema(SINK_OPTIONS_STAGE, sinkPluginSchema);

/** Checked options of the sink plugin. */
export type TfrecordSinkPluginOptions = z.output<ReturnType<typeof sinkPluginSchema>>;

/**
 * `@tfpipe/sink-tfrecord` as a config-file sink: `{ "plugin": "@tfpipe/sink-tfrecord", "options":
 * { "directory": "out", "shards": 8 } }`. In a split pipeline each split is its own shard set named
 * by the split (`train-00000-of-00008.tfrecord`, or `PREFIX-train-…` with a prefix), which needs
 * `directory`.
 */
export const plugin = defineSinkPlugin<TfrecordSinkPluginOptions>({
  kind: 'sink',
  name: '@tfpipe/sink-tfrecord',
  description: 'TFRecord files: sharded, gzip/zlib, DALI indexes, manifests',
  options: tfrecordSinkOptionsSchema,
  outputDirectory(options, context) {
    return options.directory === undefined ? undefined : context.resolvePath(options.directory);
  },
  create(options, context) {
    if (context.split !== undefined && options.directory === undefined) {
      throw new TfpipeError(
        'INVALID_OPTION',
        'a split pipeline writes one shard set per split: give directory, not path',
        {
          stage: 'tfrecordSink',
          position: { field: 'path' },
          fatal: true,
        },
      );
    }
    const { path, directory, prefix, overwrite, ...rest } = options;
    const splitPrefix =
      context.split === undefined
        ? prefix
        : prefix === undefined
          ? context.split
          : `${prefix}-${context.split}`;
    return tfrecordSink({
      ...defined(rest),
      ...(path === undefined ? {} : { path: context.resolvePath(path) }),
      ...(directory === undefined ? {} : { directory: context.resolvePath(directory) }),
      ...(splitPrefix === undefined ? {} : { prefix: splitPrefix }),
      overwrite: overwrite ?? context.overwrite ?? false,
      payloadType: context.payloadType,
      onError: context.onError,
      ...(context.deferOutput === undefined ? {} : { deferOutput: context.deferOutput }),
    });
  },
});

/**
 * The options of the TFRecord source plugin in a config file: `tfrecordSource`'s options but
 * tuning and callbacks, plus `payloadType`. The same definitions check `tfrecordSource` in code.
 */
export const tfrecordSourceOptionsSchema = optionsSchema(SOURCE_OPTIONS_STAGE, sourcePluginSchema);

/** Checked options of the source plugin. */
export type TfrecordSourcePluginOptions = z.output<ReturnType<typeof sourcePluginSchema>>;

/**
 * TFRecord files as a config-file source: `{ "plugin": "@tfpipe/sink-tfrecord", "options":
 * { "paths": "in/*.tfrecord" } }` under `source`. Payloads are copied to the sink without
 * re-encoding unless a transform or split needs their features.
 */
export const sourcePlugin = defineSourcePlugin<TfrecordSourcePluginOptions, Uint8Array>({
  kind: 'source',
  name: '@tfpipe/sink-tfrecord',
  description: 'TFRecord files (globs, gzip/zlib detected, every CRC checked)',
  options: tfrecordSourceOptionsSchema,
  output: 'payloads',
  create(options, context) {
    const patterns = typeof options.paths === 'string' ? [options.paths] : options.paths;
    const source = tfrecordSource({
      paths: patterns.map((pattern) => context.resolvePath(pattern)),
      ...(options.compression === undefined ? {} : { compression: options.compression }),
      ...(options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes }),
      onError: context.onError,
    });
    const payloads = source.pipeThrough(mapRows((record: { data: Uint8Array }) => record.data));
    // The payload stream reports what the file reader counted (records, bytes read, skipped).
    const readable = attachReport(
      payloads,
      (): StageReport => reportOf(source) ?? { stage: 'tfrecordSource' },
    );
    return { readable, payloadType: options.payloadType ?? 'Example', reporters: [source] };
  },
});
