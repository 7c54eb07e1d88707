import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { loadPipeline } from '@tfpipe/pipeline/run';
import type { TfrecordSinkOptions } from '@tfpipe/sink-tfrecord';
import { compressionOfName } from '@tfpipe/sink-tfrecord/internal';
import type { FlagValues } from '../command.js';
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
import type { CliIo } from '../io.js';
import { checkSourceFlags } from './convert-sources.js';
import { executePipeline } from './execute-pipeline.js';

const SINGLE_FILE = /\.(tfrecords?|record|tfrec)(\.gz|\.zz)?$/i;

/** Sink options from the flags: OUT is one file when it has a TFRecord extension, else a directory. */
export function sinkOptions(values: FlagValues, out: string): TfrecordSinkOptions {
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
export async function convert(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
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
}
