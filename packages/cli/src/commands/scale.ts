import { resolve } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import {
  finalizePlan,
  planPipeline,
  planStatus,
  readPlanFile,
  schedulerIndex,
  workShard,
  writePlanFile,
} from '@tfpipe/pipeline';
import type { FlagValues } from '../command.js';
import { booleanFlag, byteSizeFlag, integerFlag, requirePositionals, stringFlag } from '../flags.js';
import type { CliIo } from '../io.js';
import { writeLine } from '../io.js';
import { skippedLines } from './skipped-lines.js';

function missingFlag(name: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `missing --${name}`, { stage: 'cli', fatal: true });
}

/** `tfpipe plan PIPELINE --shards N --out PLAN`. */
export async function planFile(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const [file] = requirePositionals(positionals, 'PIPELINE file') as [string];
  const out = stringFlag(values, 'out');
  if (out === undefined) throw missingFlag('out');
  const shards = integerFlag(values, 'shards');
  const unitBytes = byteSizeFlag(values, 'unit-bytes');
  const unitImages = integerFlag(values, 'unit-images', 1);
  const plan = await planPipeline(file, {
    cwd: io.cwd,
    ...(shards === undefined ? {} : { shards }),
    ...(unitBytes === undefined ? {} : { unitBytes }),
    ...(unitImages === undefined ? {} : { unitImages }),
  });
  await writePlanFile(plan, resolve(io.cwd, out));
  await writeLine(
    io.stdout,
    `planned ${plan.shardCount} shard(s) of ${plan.units.length} unit(s) from ${plan.inputs.length} file(s) into ${plan.directory}: ${out}`,
  );
  return 0;
}

/** The index from --index, else from the scheduler's variable. */
function workIndexOf(values: FlagValues): number {
  const given = integerFlag(values, 'index', 0);
  if (given !== undefined) return given;
  try {
    return schedulerIndex();
  } catch (error) {
    if (!TfpipeError.is(error) || error.position.field !== 'index') throw error;
    throw new TfpipeError('PLAN_INDEX', 'no --index given and no scheduler variable set', {
      stage: 'work',
      fatal: true,
      ...(error.reason === undefined
        ? {}
        : { reason: error.reason.replace('pass the index', 'pass --index I') }),
    });
  }
}

/** `tfpipe work PLAN [--index I]`. */
export async function workIndex(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const [file] = requirePositionals(positionals, 'PLAN file') as [string];
  const index = workIndexOf(values);
  const plan = await readPlanFile(resolve(io.cwd, file));
  const { skipped, marker } = await workShard(plan, index);
  if (!booleanFlag(values, 'quiet')) {
    const records = marker.files.reduce((sum, item) => sum + item.records, 0);
    const what = skipped ? 'was committed already' : `wrote ${records} records`;
    await writeLine(io.stdout, `index ${index} ${what}: ${marker.files.map((item) => item.name).join(', ')}`);
    for (const line of skippedLines(marker.skippedRecords ?? 0, marker.skippedErrors ?? []))
      await writeLine(io.stdout, line);
  }
  return 0;
}

/** `tfpipe finalize PLAN`. */
export async function finalizeFile(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const [file] = requirePositionals(positionals, 'PLAN file') as [string];
  const result = await finalizePlan(await readPlanFile(resolve(io.cwd, file)));
  if (booleanFlag(values, 'json')) {
    await writeLine(io.stdout, JSON.stringify(result));
    return 0;
  }
  await writeLine(
    io.stdout,
    `finalized ${result.records} records in ${result.shards.length} shard(s); wrote ${result.files.join(', ')}`,
  );
  for (const line of skippedLines(result.skipped, result.skippedErrors)) await writeLine(io.stdout, line);
  return 0;
}

/** `tfpipe status PLAN`. */
export async function statusFile(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const [file] = requirePositionals(positionals, 'PLAN file') as [string];
  const status = await planStatus(await readPlanFile(resolve(io.cwd, file)));
  if (booleanFlag(values, 'json')) await writeLine(io.stdout, JSON.stringify(status));
  else {
    for (const state of ['done', 'running', 'missing'] as const) {
      const indexes = status[state];
      await writeLine(
        io.stdout,
        `${state}: ${indexes.length}${indexes.length > 0 ? ` (${indexes.join(', ')})` : ''}`,
      );
    }
  }
  return status.missing.length + status.running.length === 0 ? 0 : 1;
}
