import { fork } from 'node:child_process';
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
  /** Processes working shards at once: this one and `workers - 1` child processes (1: this process alone). @default 1 */
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

/**
 * Works every index on `workers` lanes: this process (`local`) and `workers - 1` child processes,
 * each taking the next index when it is free. (This process works too: it would only wait otherwise,
 * and a child costs a process start and its own JIT warm-up.)
 */
function workOnChildren(
  plan: ScalePlan,
  planFile: string,
  workers: number,
  script: string,
  report: (index: number, records: number) => void,
  local: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: TfpipeError | undefined;
  const here = (async () => {
    while (failure === undefined && next < plan.shardCount) {
      try {
        await local(next++);
      } catch (error) {
        failure ??= TfpipeError.is(error)
          ? error
          : new TfpipeError('INTERNAL', 'a shard failed', { stage: 'work', fatal: true, cause: error });
      }
    }
  })();
  const children = Array.from({ length: Math.min(workers - 1, plan.shardCount - 1) }, () => {
    const child = fork(script, [planFile], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const give = (): void => {
      if (failure === undefined && next < plan.shardCount) child.send({ index: next++ });
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
    return new Promise<void>((resolve) => {
      child.on('exit', (code, signal) => {
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
      });
    });
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
  const plan = await planPipeline(pipeline, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.shards === undefined ? {} : { shards: options.shards }),
    defaultShards: workers,
  });
  await mkdir(markerDirectory(plan), { recursive: true });
  const planFile = join(markerDirectory(plan), 'plan.json');
  await writePlanFile(plan, planFile);
  const started = performance.now();
  const written = new Map<number, number>();
  const report = (index: number, records: number): void => {
    written.set(index, records);
    let total = 0;
    for (const count of written.values()) total += count;
    options.onProgress?.({ records: total, elapsedMs: performance.now() - started });
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
  if (workers <= 1) {
    for (const { index } of plan.shards) await workHere(index);
  } else {
    const script = options.workerScript ?? new URL('./work-child.js', import.meta.url);
    await workOnChildren(
      plan,
      planFile,
      workers,
      typeof script === 'string' ? script : fileURLToPath(script),
      report,
      workHere,
    );
  }
  return { ...(await finalizePlan(plan)), plan, planFile };
}
