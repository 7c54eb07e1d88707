import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { TfrecordSinkOptions } from '@tfpipe/sink-tfrecord';
import type { Command } from '../command.js';
import { convertConfig } from '../config/convert-config.js';
import { loadPipeline } from '../config/load-pipeline.js';
import {
  booleanFlag,
  byteSizeFlag,
  choiceFlag,
  integerFlag,
  requirePositionals,
  stringFlag,
} from '../flags.js';
import { detectInputKind } from '../input-source.js';
import { checkSourceFlags, SOURCE_FLAGS, SOURCE_FLAGS_HELP } from './convert-sources.js';
import { executePipeline, RUN_FLAGS } from './run.js';

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
  --overwrite           replace existing output (a directory's old shards: all of them)
  --on-error P          fail (default) or skip bad records, counted in the summary
  --save-config FILE    also write these choices as a pipeline file; 'tfpipe run FILE' repeats this
                        conversion exactly (edit it to add transforms, splits, a shuffle)
  --json                print the final summary as one JSON object
  --quiet               no progress line, no summary

A directory of shards also gets reader_spec.py: the feature_description to read it with TensorFlow.

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
    'on-error': { type: 'string' },
    'save-config': { type: 'string' },
    ...RUN_FLAGS,
    ...SOURCE_FLAGS,
  },
  async run(values, positionals, io) {
    const [input, out] = requirePositionals(positionals, 'IN and OUT', 2) as [string, string];
    choiceFlag(values, 'on-error', ['fail', 'skip'] as const);
    const kind = await detectInputKind(resolve(io.cwd, input));
    checkSourceFlags(kind, values, input);
    const sink = sinkOptions(values, out);
    const saveConfig = stringFlag(values, 'save-config');
    if (saveConfig !== undefined) {
      const file = resolve(io.cwd, saveConfig);
      const saved = await convertConfig(kind, input, sink, values, io.cwd, dirname(file));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`);
    }
    const config = await convertConfig(kind, input, sink, values, io.cwd, io.cwd);
    const loaded = await loadPipeline(config, { baseDirectory: io.cwd });
    return executePipeline(loaded, values, io);
  },
};
