import { open } from 'node:fs/promises';
import { daliSpec, FeatureStatsCollector, tensorflowSpec, type DatasetStats } from '@tfpipe/core';
import { detectCompression, expandPaths, readExamples } from '@tfpipe/sink-tfrecord';
import type { Command } from '../command.js';
import { choiceFlag, integerFlag, requirePositionals } from '../flags.js';
import { writeLine } from '../io.js';
import { payloadTypeOf, READ_FLAGS, READ_FLAGS_HELP, readOptions } from './read-options.js';

/** Reads records of `files` into dataset statistics (all of them, or the first `limit`). */
export async function collectStats(
  files: readonly string[],
  options: Parameters<typeof readExamples>[1],
  limit = Infinity,
): Promise<DatasetStats> {
  const collector = new FeatureStatsCollector();
  for await (const record of readExamples(files, options ?? {})) {
    collector.add(record);
    if (collector.records >= limit) break;
  }
  return collector.result(options?.payloadType === 'SequenceExample' ? 'SequenceExample' : 'Example');
}

/** The compression of a file from its first bytes, for the generated reader code. */
export async function sniffCompression(file: string): Promise<'none' | 'gzip' | 'zlib'> {
  const handle = await open(file, 'r');
  try {
    const head = new Uint8Array(32);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return detectCompression(head.subarray(0, bytesRead), true) ?? 'none';
  } finally {
    await handle.close();
  }
}

function table(stats: DatasetStats): string[] {
  const rows = [
    ...stats.features.map((stat) => ({ ...stat, label: stat.name })),
    ...stats.featureLists.map((stat) => ({
      ...stat,
      label: `${stat.name} (list, ${stat.minSteps}-${stat.maxSteps} steps)`,
    })),
  ];
  const width = Math.max(7, ...rows.map((row) => row.label.length));
  const lines = [
    `${stats.records} records (${stats.payloadType})`,
    `${'feature'.padEnd(width)}  kind    length    present`,
  ];
  for (const row of rows) {
    const length = row.minLength === row.maxLength ? `${row.minLength}` : `${row.minLength}-${row.maxLength}`;
    const present = `${row.present}/${stats.records}`;
    lines.push(`${row.label.padEnd(width)}  ${row.kind.padEnd(6)}  ${length.padEnd(8)}  ${present}`);
  }
  return lines;
}

/** `tfpipe schema`: the features of a dataset, and the reader code for TensorFlow or DALI. */
export const schemaCommand: Command = {
  name: 'schema',
  summary: 'features, kinds, list lengths and presence; --format tf|dali prints reader code',
  usage: `Usage: tfpipe schema FILE... [options]

Reads TFRecord files (paths or globs) and reports every feature: its kind, its list lengths and in how
many records it is present.

Options:
  --format F            text (default), json, tf (the feature_description for tf.io.parse_single_example,
                        or the specs for tf.io.parse_single_sequence_example), dali (features for
                        fn.readers.tfrecord)
  --limit N             read only the first N records
${READ_FLAGS_HELP}`,
  options: { format: { type: 'string' }, limit: { type: 'string' }, ...READ_FLAGS },
  async run(values, positionals, io) {
    const files = await expandPaths(requirePositionals(positionals, 'FILE to describe'), 'schema');
    const format = choiceFlag(values, 'format', ['text', 'json', 'tf', 'dali'] as const) ?? 'text';
    const payloadType = await payloadTypeOf(values, files[0]);
    const stats = await collectStats(
      files,
      { ...readOptions(values), payloadType },
      integerFlag(values, 'limit'),
    );
    const compression = files[0] === undefined ? 'none' : await sniffCompression(files[0]);
    const output =
      format === 'json'
        ? JSON.stringify(stats, null, 2)
        : format === 'tf'
          ? tensorflowSpec(stats, { files, compression })
          : format === 'dali'
            ? daliSpec(stats, { files })
            : table(stats).join('\n');
    await writeLine(io.stdout, output.trimEnd());
    return 0;
  },
};
