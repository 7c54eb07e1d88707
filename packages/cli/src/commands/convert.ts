import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { loadPipeline } from '@tfpipe/pipeline';
import { compressionOfName } from '@tfpipe/sink-tfrecord/internal';
import type { TfrecordSinkOptions } from '@tfpipe/sink-tfrecord';
import type { Command } from '../command.js';
import { convertConfig } from '../config/convert-config.js';
import { checkNewFile, writeFileAtomically } from '../config/output-guard.js';
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
  const single = SINGLE_FILE.test(out) && !sharded;
  const named = single ? compressionOfName(out) : undefined;
  if (named !== undefined && compression !== undefined && compression !== named) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `--compression ${compression} contradicts OUT ${JSON.stringify(out)}, whose ending says ${named}: drop --compression (it follows the name) or rename OUT`,
      { stage: 'convert', fatal: true },
    );
  }
  const target: TfrecordSinkOptions = single ? { path: out } : { directory: out, prefix: prefix ?? 'data' };
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
  --compression C       none, gzip or zlib: the whole file, as TensorFlow's GZIP/ZLIB options (default:
                        gzip for an OUT ending in .gz, zlib for .zz, else none)
  --level N             compression level 0-9 (default 6)
  --shards N            exactly N shards, records dealt round-robin
  --max-records N       a new shard every N records
  --max-bytes SIZE      a new shard before SIZE bytes (e.g. 256M)
  --prefix NAME         shard name prefix (default data)
  --index               write a DALI index (<shard>.idx) beside each uncompressed shard
  --manifest            write PREFIX.manifest.json: shards, counts, sha256, features
  --overwrite           replace the previous output of OUT (its shard set of PREFIX, its manifest);
                        other files and prefixes in the directory are never touched
  --on-error P          fail (default) or skip bad records, counted in the summary
  --save-config FILE    after a successful run, also write these choices as a pipeline file; 'tfpipe run
                        FILE' repeats this conversion exactly (edit it to add transforms, splits, a
                        shuffle). FILE may not be IN or OUT; an existing FILE needs --overwrite
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
    const saveFile = saveConfig === undefined ? undefined : resolve(io.cwd, saveConfig);
    let saved: object | undefined;
    if (saveFile !== undefined) {
      await checkNewFile(saveFile, {
        flag: '--save-config',
        overwrite: booleanFlag(values, 'overwrite'),
        inputs: [resolve(io.cwd, input)],
        outputs: [resolve(io.cwd, out)],
      });
      saved = await convertConfig(kind, input, sink, values, io.cwd, dirname(saveFile));
    }
    const config = await convertConfig(kind, input, sink, values, io.cwd, io.cwd);
    const loaded = await loadPipeline(config, { baseDirectory: io.cwd });
    const code = await executePipeline(loaded, values, io);
    // Only a run that succeeded is worth repeating; until then nothing exists at FILE.
    if (saveFile !== undefined && code === 0) {
      await mkdir(dirname(saveFile), { recursive: true });
      await writeFileAtomically(saveFile, `${JSON.stringify(saved, null, 2)}\n`);
    }
    return code;
  },
};
