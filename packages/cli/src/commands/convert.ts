import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { reportOf, run, type RunSummary } from '@tfpipe/core';
import { tfrecordSink, type TfrecordSinkOptions } from '@tfpipe/sink-tfrecord';
import { saveVocabularies } from '@tfpipe/source-csv';
import { writeLabelMap, type LabelMap } from '@tfpipe/source-images';
import type { Command } from '../command.js';
import {
  booleanFlag,
  byteSizeFlag,
  choiceFlag,
  integerFlag,
  requirePositionals,
  stringFlag,
} from '../flags.js';
import { detectInputKind } from '../input-source.js';
import { writeLine } from '../io.js';
import { formatBytes } from '../preview.js';
import { ttyProgress } from '../progress.js';
import { openInput, SOURCE_FLAGS, SOURCE_FLAGS_HELP } from './convert-sources.js';

type Values = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;
const SINGLE_FILE = /\.(tfrecords?|record|tfrec)(\.gz|\.zz)?$/i;

/** Sink options from the flags: OUT is one file when it has a TFRecord extension, else a directory. */
export function sinkOptions(values: Values, out: string): TfrecordSinkOptions {
  const compression = choiceFlag(values, 'compression', ['none', 'gzip', 'zlib'] as const);
  const level = integerFlag(values, 'level', 0);
  const shards = integerFlag(values, 'shards');
  const maxRecords = integerFlag(values, 'max-records');
  const maxBytes = byteSizeFlag(values, 'max-bytes');
  const prefix = stringFlag(values, 'prefix');
  const sharded =
    shards !== undefined || maxRecords !== undefined || maxBytes !== undefined || prefix !== undefined;
  const target: TfrecordSinkOptions =
    SINGLE_FILE.test(out) && !sharded ? { path: out } : { directory: out, prefix: prefix ?? 'data' };
  return {
    ...target,
    ...(compression === undefined ? {} : { compression }),
    ...(level === undefined ? {} : { level }),
    ...(shards === undefined ? {} : { shards }),
    ...(maxRecords === undefined ? {} : { maxRecords }),
    ...(maxBytes === undefined ? {} : { maxBytes }),
    index: booleanFlag(values, 'index'),
    manifest: booleanFlag(values, 'manifest'),
    overwrite: booleanFlag(values, 'overwrite'),
  };
}

/** One summary line per fact, for the end of a conversion. */
export function summaryLines(summary: RunSummary): string[] {
  const seconds = summary.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(summary.recordsWritten / seconds) : summary.recordsWritten;
  const lines = [
    `wrote ${summary.recordsWritten} records in ${summary.shards.length} file(s), ${formatBytes(summary.bytes)}, ${seconds.toFixed(2)} s (${rate.toLocaleString('en-US')} records/s)`,
  ];
  for (const shard of summary.shards)
    lines.push(`  ${shard.path}  ${shard.records} records  ${formatBytes(shard.bytes)}`);
  if (summary.skipped > 0) {
    lines.push(`skipped ${summary.skipped} bad record(s):`);
    for (const error of summary.skippedErrors.slice(0, 10)) lines.push(`  ${error.message} [${error.code}]`);
  }
  return lines;
}

/** `tfpipe convert IN OUT`: any supported input to TFRecord files. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'CSV, Parquet, images, JSON Lines or TFRecords → TFRecord files',
  usage: `Usage: tfpipe convert IN OUT [options]

Converts IN to TFRecord files of tf.train.Example. OUT is one file when it ends in .tfrecord (.gz, .zz)
and no sharding is asked; otherwise a directory of shards PREFIX-00000-of-0000N.tfrecord. Nothing
appears under a final name until it is complete.

Output:
  --compression C       none (default), gzip or zlib: the whole file, as TensorFlow's GZIP/ZLIB options
  --level N             compression level 0-9 (default 6)
  --shards N            exactly N shards, records dealt round-robin
  --max-records N       a new shard every N records
  --max-bytes SIZE      a new shard before SIZE bytes (e.g. 256M)
  --prefix NAME         shard name prefix (default data)
  --index               write a DALI index (<shard>.idx) beside each uncompressed shard
  --manifest            write PREFIX.manifest.json: shards, counts, sha256, features
  --overwrite           replace existing output with the same name or prefix
  --on-error P          fail (default) or skip bad records, counted in the summary
  --quiet               no progress line, no summary

${SOURCE_FLAGS_HELP}`,
  options: {
    compression: { type: 'string' },
    level: { type: 'string' },
    shards: { type: 'string' },
    'max-records': { type: 'string' },
    'max-bytes': { type: 'string' },
    prefix: { type: 'string' },
    index: { type: 'boolean' },
    manifest: { type: 'boolean' },
    overwrite: { type: 'boolean' },
    'on-error': { type: 'string' },
    quiet: { type: 'boolean' },
    ...SOURCE_FLAGS,
  },
  async run(values, positionals, io) {
    const [input, out] = requirePositionals(positionals, 'IN and OUT', 2) as [string, string];
    const onError = choiceFlag(values, 'on-error', ['fail', 'skip'] as const) ?? 'fail';
    const quiet = booleanFlag(values, 'quiet');
    const kind = await detectInputKind(input);
    const options = sinkOptions(values, out);
    const source = await openInput(kind, input, values, { onError });
    const sink = tfrecordSink({ ...options, payloadType: source.payloadType });
    const progress = ttyProgress(io.stderr, quiet);
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    let summary: RunSummary;
    try {
      summary = await run(source.readable, sink, {
        signal: controller.signal,
        onProgress: progress.onProgress,
      });
    } finally {
      process.off('SIGINT', onSignal);
      progress.done();
    }
    await writeSidecars(kind, source.reporters, options, out);
    if (!quiet) for (const line of summaryLines(summary)) await writeLine(io.stdout, line);
    return 0;
  },
};

async function outputDirectory(options: TfrecordSinkOptions, out: string): Promise<string> {
  if (options.directory !== undefined) return options.directory;
  const info = await stat(out).catch(() => undefined);
  return info?.isDirectory() === true ? out : dirname(out);
}

/** Label maps and vocabularies go beside the output, so the ids in it can be read back as names. */
async function writeSidecars(
  kind: string,
  reporters: readonly object[],
  options: TfrecordSinkOptions,
  out: string,
): Promise<void> {
  const directory = await outputDirectory(options, out);
  const details = reporters.map((reporter) => reportOf(reporter)?.details ?? {});
  if (kind === 'images') {
    const labelMap = details[0]?.labelMap as LabelMap | undefined;
    if (labelMap !== undefined) await writeLabelMap(join(directory, 'labels.txt'), labelMap);
  }
  if (kind === 'csv') {
    const schema = details[0]?.schema;
    if (schema !== undefined)
      await saveVocabularies(directory, schema as Parameters<typeof saveVocabularies>[1]);
  }
}
