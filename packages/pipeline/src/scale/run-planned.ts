import { fork, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TfpipeError, type Progress, type TfpipeErrorCode } from '@tfpipe/core';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { finalizePlan, type FinalizeResult } from './finalize-plan.js';
import { writePlanFile } from './plan-file.js';
import { planPipeline } from './plan-pipeline.js';
import type { ScalePlan } from './plan-types.js';
import { markerDirectory } from './shard-marker.js';
import { workShard } from './work-shard.js';

/** Options of {@link runPlannedPipeline}. */
export interface RunPlannedOptions {
  /**
   * Processes working shards at once: this one and `workers - 1` child processes, started before planning
   * so that their start overlaps it (1: this process alone). @default 1
   */
  readonly workers?: number;
  /** Work indexes (output shards per split). @default sink.options.shards, else `workers` */
  readonly shards?: number;
  /** What a pipeline file's path and a config's relative paths resolve against. @default process.cwd() */
  readonly cwd?: string;
  /** Records written so far by all workers together. */
  readonly onProgress?: (progress: Pick<Progress, 'records' | 'elapsedMs'>) => void;
  /** The forked worker script. @default this package's built `work-child.js` */
  readonly workerScript?: string | URL;
}

/** What {@link runPlannedPipeline} did. */
export interface RunPlannedResult extends FinalizeResult {
  readonly plan: ScalePlan;
  /** The plan file the workers read (in the plan's marker directory). */
  readonly planFile: string;
}

interface ChildMessage {
  readonly ready?: boolean;
  readonly index?: number;
  readonly records?: number;
  readonly done?: number;
  readonly failed?: number;
  readonly error?: { code: TfpipeErrorCode; message: string; stage?: string; position?: object };
}

/** How much work index `index` holds, for handing out the largest first: CSV bytes, else units. */
function shardWeight(plan: ScalePlan, index: number): number {
  let weight = 0;
  for (const unit of plan.shards[index]!.units) {
    const planned = plan.units[unit]!;
    weight += planned.kind === 'bytes' ? planned.end - planned.start : 1;
  }
  return weight;
}

/**
 * The order indexes are handed out in: largest first (longest-processing-time first), so that the
 * last index a lane takes is a small one and no lane waits long for another at the end. The order
 * changes no output: each index writes its own files.
 */
export function handOutOrder(plan: ScalePlan): number[] {
  const weights = plan.shards.map(({ index }) => shardWeight(plan, index));
  return plan.shards
    .map(({ index }) => index)
    .sort((left, right) => weights[right]! - weights[left]! || left - right);
}

/**
 * Child processes started before planning, so that their start (Node, module loading) runs while
 * this process plans: each waits for `{ plan }` before it reads the plan file.
 */
function startChildren(count: number, script: string): ChildProcess[] {
  return Array.from({ length: count }, () => {
    const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // A message to a child that died fails here; its exit is what reports it (see workOnChildren).
    child.on('error', () => undefined);
    return child;
  });
}

/**
 * Works every index on `workers` lanes: this process (`local`) and the started child processes,
 * each taking the next index when it is free, largest first. (This process works too: it would only
 * wait otherwise, and a child costs a process start and its own JIT warm-up.)
 */
function workOnChildren(
  plan: ScalePlan,
  planFile: string,
  started: readonly ChildProcess[],
  report: (index: number, records: number) => void,
  local: (index: number) => Promise<void>,
): Promise<void> {
  const order = handOutOrder(plan);
  let next = 0;
  let failure: TfpipeError | undefined;
  const here = (async () => {
    while (failure === undefined && next < order.length) {
      try {
        await local(order[next++]!);
      } catch (error) {
        failure ??= TfpipeError.is(error)
          ? error
          : new TfpipeError('INTERNAL', 'a shard failed', { stage: 'work', fatal: true, cause: error });
      }
    }
  })();
  const children = started.map((child) => {
    const give = (): void => {
      if (failure === undefined && next < order.length) child.send({ index: order[next++] });
      else child.send({ exit: true });
    };
    child.on('message', (message: ChildMessage) => {
      if (message.ready === true) give();
      else if (message.index !== undefined && message.records !== undefined)
        report(message.index, message.records);
      else if (message.done !== undefined) {
        report(message.done, message.records ?? 0);
        give();
      } else if (message.failed !== undefined && message.error !== undefined) {
        const { code, message: text, stage, position } = message.error;
        failure ??= new TfpipeError(code, text, {
          stage: stage ?? 'work',
          fatal: true,
          position: position ?? {},
        });
        give();
      }
    });
    const ended = new Promise<void>((resolve) => {
      const end = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (code !== 0 && failure === undefined) {
          failure = new TfpipeError(
            'INTERNAL',
            `a worker process ended with ${signal ?? `exit code ${code}`}`,
            {
              stage: 'work',
              fatal: true,
            },
          );
        }
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) end(child.exitCode, child.signalCode);
      else child.on('exit', end);
    });
    child.send({ plan: planFile });
    return ended;
  });
  return Promise.all([here, ...children]).then(() => {
    if (failure !== undefined) throw failure;
  });
}

/**
 * Runs a pipeline as a plan on one machine: plans it, works every index (in this process, or on
 * `workers` child processes), then finalizes. The output is byte for byte the same for any number of
 * workers, and the same as `tfpipe plan` + `work` on each index + `finalize`.
 *
 * @throws TfpipeError the plan's errors, the first shard's failure, `SHARD_INCOMPLETE`.
 */
export async function runPlannedPipeline(
  pipeline: string | PipelineConfig,
  options: RunPlannedOptions = {},
): Promise<RunPlannedResult> {
  const workers = options.workers ?? 1;
  const script = options.workerScript ?? new URL('./work-child.js', import.meta.url);
  // Children start at once; the plan caps them at one fewer than its indexes once it is known.
  const started =
    workers > 1
      ? startChildren(workers - 1, typeof script === 'string' ? script : fileURLToPath(script))
      : [];
  const stop = (children: readonly ChildProcess[]): void => {
    for (const child of children) if (child.connected) child.send({ exit: true });
  };
  let plan: ScalePlan;
  let planFile: string;
  try {
    plan = await planPipeline(pipeline, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.shards === undefined ? {} : { shards: options.shards }),
      defaultShards: workers,
    });
    await mkdir(markerDirectory(plan), { recursive: true });
    planFile = join(markerDirectory(plan), 'plan.json');
    await writePlanFile(plan, planFile);
  } catch (error) {
    stop(started);
    throw error;
  }
  const children = started.slice(0, Math.max(0, plan.shardCount - 1));
  stop(started.slice(children.length));
  const begun = performance.now();
  const written = new Map<number, number>();
  const report = (index: number, records: number): void => {
    written.set(index, records);
    let total = 0;
    for (const count of written.values()) total += count;
    options.onProgress?.({ records: total, elapsedMs: performance.now() - begun });
  };
  const workHere = async (index: number): Promise<void> => {
    const { marker } = await workShard(plan, index, {
      onProgress: (progress) => report(index, progress.records),
    });
    report(
      index,
      marker.files.reduce((sum, file) => sum + file.records, 0),
    );
  };
  if (children.length === 0) {
    for (const { index } of plan.shards) await workHere(index);
  } else {
    await workOnChildren(plan, planFile, children, report, workHere);
  }
  return { ...(await finalizePlan(plan)), plan, planFile };
}
