import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TfpipeError, type Progress, type TfpipeErrorCode } from '@tfpipe/core';
import { writeError } from '@tfpipe/node-utils';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { finalizePlan, type FinalizeResult } from './finalize-plan.js';
import { writePlanFile } from './plan-file.js';
import { planPipeline } from './plan-pipeline.js';
import type { ScalePlan } from './plan-types.js';
import { markerDirectory, processAlive } from './shard-marker.js';
import { PartsJoin, partsJoinable, workPart, type WrittenPart } from './work-parts.js';
import { TaskClaims, workLane } from './work-lane.js';
import { workShard } from './work-shard.js';

/** Options of {@link runPlannedPipeline}. */
export interface RunPlannedOptions {
  /**
   * Processes working shards at once: this one and `workers - 1` child processes, started before planning
   * so that their start overlaps it (1: this process alone). With 2 or more, the last `workers` indexes
   * run as one part per unit on whichever process is free, joined in order at the commit, when the
   * output allows it (uncompressed, no `.idx`, no shuffle or sample): the same bytes. @default 1
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
  /** Progress of task `task`. */
  readonly task?: number;
  readonly records?: number;
  readonly done?: number;
  /** The part a done part task wrote. */
  readonly part?: WrittenPart;
  readonly failed?: number;
  readonly error?: { code: TfpipeErrorCode; message: string; stage?: string; position?: object };
}

/** One piece of work a lane takes: a whole index, or a part of one (some of its units, in order). */
export interface LaneTask {
  readonly index: number;
  /** The part's units; absent for the whole index. */
  readonly units?: readonly number[];
}

/** How much work the given units hold, for handing out the largest first: CSV bytes, else units. */
function unitsWeight(plan: ScalePlan, units: readonly number[]): number {
  let weight = 0;
  for (const unit of units) {
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
  const weights = plan.shards.map(({ units }) => unitsWeight(plan, units));
  return plan.shards
    .map(({ index }) => index)
    .sort((left, right) => weights[right]! - weights[left]! || left - right);
}

/**
 * The tasks `lanes` lanes take in turn: whole indexes largest first, then, when parts can be joined
 * ({@link partsJoinable}), the last `lanes` indexes of more than one unit cut into one part per
 * unit, largest first, so that at the end a lane waits for at most one unit of another, not a whole
 * index. Each index's bytes are the same either way.
 */
export function handOutTasks(plan: ScalePlan, lanes: number): LaneTask[] {
  const order = handOutOrder(plan);
  const cut = new Set(
    lanes > 1 && partsJoinable(plan)
      ? order.filter((index) => plan.shards[index]!.units.length > 1).slice(-lanes)
      : [],
  );
  const parts = order
    .filter((index) => cut.has(index))
    .flatMap((index) => plan.shards[index]!.units.map((unit) => ({ index, units: [unit] })))
    .map((task, position) => ({ task, position, weight: unitsWeight(plan, task.units) }))
    .sort((left, right) => right.weight - left.weight || left.position - right.position)
    .map(({ task }) => task);
  return [...order.filter((index) => !cut.has(index)).map((index) => ({ index })), ...parts];
}

/** The start of a lanes' task directory's name: `tfpipe-claims-<pid>-<host>-<random>`. */
const CLAIMS = 'tfpipe-claims-';

/** This host in those names: a PID says nothing about a run on another host sharing the directory. */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** A new lanes' task directory in `directory`, named for this process and host. */
function makeClaims(directory: string): Promise<string> {
  return mkdtemp(join(directory, `${CLAIMS}${process.pid}-${HOST}-`));
}

/**
 * Removes the lanes' task directories that runs on this host left in `directory` when they were
 * killed before they could remove their own (SIGKILL): those whose process is gone. Resolves with
 * their names.
 */
export async function removeStaleClaims(directory: string): Promise<string[]> {
  const pattern = new RegExp(`^${CLAIMS}(\\d+)-${HOST}-`);
  const removed: string[] = [];
  for (const name of await readdir(directory).catch(() => [] as string[])) {
    const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || pid === process.pid || processAlive(pid)) continue;
    await rm(join(directory, name), { recursive: true, force: true }).catch(() => undefined);
    removed.push(name);
  }
  return removed;
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
 * Tells the started children which plugins the pipeline names, so that each loads them while it
 * waits for the plan instead of in its first task.
 */
function warmChildren(children: readonly ChildProcess[], config: PipelineConfig): void {
  const plugins = [config.source.plugin, config.sink.plugin].filter(
    (plugin): plugin is string => typeof plugin === 'string',
  );
  for (const child of children) if (child.connected) child.send({ warm: plugins });
}

/** What a lane does with a task: resolves with the part for a part task (see {@link LaneWork}). */
type LocalWork = (
  task: LaneTask,
  id: number,
  inputRead: () => void,
  signal: AbortSignal,
) => Promise<WrittenPart | undefined>;

/**
 * Works every task on the lanes: this process (`local`) and the started child processes, each
 * taking the next task from `claims` (a directory the lanes share, see {@link TaskClaims}) when it
 * is free, with no round trip through this process, whose own work would delay the answer. (This
 * process works too: it would only wait otherwise, and a child costs a process start and its own
 * JIT warm-up.) Each part goes to `onPart` as it is done. After a failure every task left is taken,
 * so that no lane starts another, and the first failure is thrown once every lane has stopped.
 */
function workOnChildren(
  planFile: string,
  tasks: readonly LaneTask[],
  claims: string,
  started: readonly ChildProcess[],
  report: (id: number, records: number) => void,
  local: LocalWork,
  onPart: (task: LaneTask, id: number, part: WrittenPart) => void,
): Promise<void> {
  const taken = new TaskClaims(claims, tasks.length);
  let failure: TfpipeError | undefined;
  const fail = (error: TfpipeError): void => {
    failure ??= error;
    taken.takeAll();
  };
  const here = workLane(
    taken,
    async (id, inputRead, signal) => {
      const part = await local(tasks[id]!, id, inputRead, signal);
      if (part !== undefined) onPart(tasks[id]!, id, part);
    },
    () => failure !== undefined,
  ).catch((error: unknown) =>
    fail(
      TfpipeError.is(error)
        ? error
        : new TfpipeError('INTERNAL', 'a shard failed', { stage: 'work', fatal: true, cause: error }),
    ),
  );
  const children = started.map((child) => {
    child.on('message', (message: ChildMessage) => {
      if (message.task !== undefined && message.records !== undefined) report(message.task, message.records);
      else if (message.done !== undefined) {
        report(message.done, message.records ?? 0);
        if (message.part !== undefined) onPart(tasks[message.done]!, message.done, message.part);
      } else if (message.failed !== undefined && message.error !== undefined) {
        const { code, message: text, stage, position } = message.error;
        fail(new TfpipeError(code, text, { stage: stage ?? 'work', fatal: true, position: position ?? {} }));
      }
    });
    const ended = new Promise<void>((resolve) => {
      const end = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (code !== 0) {
          fail(
            new TfpipeError('INTERNAL', `a worker process ended with ${signal ?? `exit code ${code}`}`, {
              stage: 'work',
              fatal: true,
            }),
          );
        }
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) end(child.exitCode, child.signalCode);
      else child.on('exit', end);
    });
    child.send({ plan: planFile, lanes: started.length + 1, tasks, claims });
    return ended;
  });
  return Promise.all([here, ...children]).then(() => {
    if (failure !== undefined) throw failure;
  });
}

/**
 * Joins the parts of cut indexes as they arrive ({@link PartsJoin}: each appended once the parts
 * before it are in) and commits an index once all its parts are in. `settle` waits for every
 * commit begun; `discard` removes what was never committed.
 */
function partJoiner(plan: ScalePlan, tasks: readonly LaneTask[]) {
  // Each part task's position in its index's unit order, and the parts per index.
  const positions = new Map<number, number>();
  const counts = new Map<number, number>();
  tasks.forEach((task, id) => {
    if (task.units === undefined) return;
    const units = plan.shards[task.index]!.units;
    const before = tasks.filter(
      (other) =>
        other.index === task.index &&
        other.units !== undefined &&
        units.indexOf(other.units[0]!) < units.indexOf(task.units![0]!),
    ).length;
    positions.set(id, before);
    counts.set(task.index, (counts.get(task.index) ?? 0) + 1);
  });
  const joins = new Map<number, { join: PartsJoin; arrived: number }>();
  const commits: Promise<unknown>[] = [];
  return {
    add: (task: LaneTask, id: number, part: WrittenPart): void => {
      let entry = joins.get(task.index);
      if (entry === undefined) {
        entry = { join: new PartsJoin(plan, task.index, counts.get(task.index)!), arrived: 0 };
        joins.set(task.index, entry);
      }
      entry.join.add(positions.get(id)!, part);
      if (++entry.arrived < counts.get(task.index)!) return;
      joins.delete(task.index);
      commits.push(entry.join.commit());
    },
    async settle(): Promise<void> {
      const results = await Promise.allSettled(commits);
      const failed = results.find((result) => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
    async discard(): Promise<void> {
      await Promise.allSettled(commits);
      for (const { join } of joins.values()) await join.discard();
    },
  };
}

/**
 * Runs a pipeline as a plan on one machine: plans it, works every index (in this process, or on
 * `workers` child processes), then finalizes. A run of the same plan killed before finalize is taken
 * up where it stopped (its committed indexes kept); a finished one is refused (`OUTPUT_EXISTS`). The output is byte for byte the same for any number of
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
  if (workers > 1) await removeStaleClaims(tmpdir());
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
      // A run of this plan that was killed is taken up where it stopped.
      resume: true,
      // The children load the pipeline's plugins while this process scans the inputs.
      onConfig: (config) => warmChildren(started, config),
    });
    await mkdir(markerDirectory(plan), { recursive: true });
    planFile = join(markerDirectory(plan), 'plan.json');
    await writePlanFile(plan, planFile);
  } catch (error) {
    stop(started);
    throw error;
  }
  const tasks = handOutTasks(plan, Math.min(workers, plan.shardCount));
  const children = started.slice(0, Math.max(0, Math.min(workers, tasks.length) - 1));
  stop(started.slice(children.length));
  const lanes = children.length + 1;
  const begun = performance.now();
  const written = new Map<number, number>();
  const report = (id: number, records: number): void => {
    written.set(id, records);
    let total = 0;
    for (const count of written.values()) total += count;
    options.onProgress?.({ records: total, elapsedMs: performance.now() - begun });
  };
  const workHere: LocalWork = async (task, id, inputRead, signal) => {
    const onProgress = (progress: Progress): void => report(id, progress.records);
    const taskOptions = { lanes, signal, onProgress, onInputRead: inputRead };
    if (task.units !== undefined) {
      const part = await workPart(plan, task.index, task.units, taskOptions);
      report(
        id,
        part.files.reduce((sum, file) => sum + file.written.records, 0),
      );
      return part;
    }
    const { marker } = await workShard(plan, task.index, taskOptions);
    report(
      id,
      marker.files.reduce((sum, file) => sum + file.records, 0),
    );
    return undefined;
  };
  if (children.length === 0) {
    // Index order; each index's commit overlaps the next one's reading (see workLane).
    await workLane(new TaskClaims(undefined, plan.shardCount), async (index, inputRead, signal) => {
      await workHere({ index }, index, inputRead, signal);
    });
  } else {
    const joiner = partJoiner(plan, tasks);
    const claims = await makeClaims(tmpdir()).catch((error: unknown) => {
      stop(children);
      throw writeError(error, tmpdir(), 'work', "creating the lanes' task directory");
    });
    try {
      await workOnChildren(planFile, tasks, claims, children, report, workHere, joiner.add);
      await joiner.settle();
    } catch (error) {
      await joiner.discard();
      throw error;
    } finally {
      await rm(claims, { recursive: true, force: true });
    }
  }
  return { ...(await finalizePlan(plan)), plan, planFile };
}
