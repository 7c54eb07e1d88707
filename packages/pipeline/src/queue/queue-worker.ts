import type { Job, Queue, Worker } from 'bullmq';
import { TfpipeError } from '@tfpipe/core';
import {
  DEFAULT_QUEUE,
  checkRedis,
  redisOptions,
  shownRedis,
  type QueueConnectionOptions,
} from './redis-connection.js';
import { finalizeJobId, type PlanJobData } from './plan-jobs.js';
import { importBullmq } from './import-bullmq.js';

/** One event of a worker's life, for a progress line. */
export type QueueWorkerEvent =
  | { readonly type: 'started' | 'completed'; readonly job: string; readonly index?: number }
  | { readonly type: 'failed'; readonly job: string; readonly index?: number; readonly message: string };

/** A worker of the plan queue. */
export interface QueueWorkerOptions extends QueueConnectionOptions {
  /**
   * Writes work index `index` of the plan file `plan`. Keep CPU work off this thread (a child
   * process or a worker thread), so that the job's lock is renewed while it runs.
   */
  readonly work: (plan: string, index: number, signal: AbortSignal) => Promise<void>;
  /** Checks every shard of `plan` and writes its manifest: the parent job, run once all shards completed. */
  readonly finalize: (plan: string, signal: AbortSignal) => Promise<void>;
  /** Jobs run at once by this worker. @default 1 */
  readonly concurrency?: number;
  /** Milliseconds a job's lock lasts unless renewed; a job whose worker died runs again after it. @default 30000 */
  readonly lockDuration?: number;
  /**
   * Times a job may stall (its worker lost its lock) before it fails; `tfpipe queue resume` then
   * re-enqueues it. @default 3
   */
  readonly maxStalledCount?: number;
  /** Stops the worker: running jobs finish first. */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds Redis may stay unreachable (or refuse the connection's credentials) while the worker
   * runs before it gives up: it stops its running jobs and fails with `QUEUE_UNREACHABLE`. A fresh
   * connection is tried about every fifth of this (at most every 5 s).
   * @default 60000
   */
  readonly unreachableMs?: number;
  /** Stop once this plan's finalize job has completed (the plan's checksum). */
  readonly untilPlanDone?: string;
  /** Each job started, completed or failed. */
  readonly onEvent?: (event: QueueWorkerEvent) => void;
}

/**
 * Runs the plan queue's jobs until `signal` aborts (or the plan named by `untilPlanDone` is
 * finalized). Correctness does not rest on BullMQ's locks: two runs of one shard both end with the
 * same bytes, and finalize checks every shard's commit marker.
 */
export async function runQueueWorker(options: QueueWorkerOptions): Promise<void> {
  const unreachableMs = options.unreachableMs ?? 60_000;
  if (!Number.isSafeInteger(unreachableMs) || unreachableMs < 1) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `unreachableMs must be a whole number ≥ 1, got ${unreachableMs}`,
      {
        stage: 'queue',
        fatal: true,
        position: { field: 'unreachableMs' },
      },
    );
  }
  await checkRedis(options.redis);
  const { Queue, Worker } = await importBullmq('tfpipe worker');
  const connection = redisOptions(options.redis);
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const stopping = new AbortController();
  const stop = (): void => stopping.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  const worker: Worker<PlanJobData> = new Worker<PlanJobData>(
    queueName,
    async (job: Job<PlanJobData>) => {
      const index = job.data.kind === 'shard' ? job.data.index : undefined;
      const name = job.id ?? job.name;
      options.onEvent?.({ type: 'started', job: name, ...(index === undefined ? {} : { index }) });
      if (job.data.kind === 'shard') await options.work(job.data.plan, job.data.index, stopping.signal);
      else await options.finalize(job.data.plan, stopping.signal);
    },
    {
      connection,
      concurrency: options.concurrency ?? 1,
      lockDuration: options.lockDuration ?? 30_000,
      // A dead worker's job is looked for as often as a lock lasts, so it runs again within two lock times.
      stalledInterval: options.lockDuration ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 3,
      autorun: true,
    },
  );
  worker.on('completed', (job) => {
    const index = job.data.kind === 'shard' ? job.data.index : undefined;
    options.onEvent?.({
      type: 'completed',
      job: job.id ?? job.name,
      ...(index === undefined ? {} : { index }),
    });
  });
  worker.on('failed', (job, error) => {
    if (job === undefined) return;
    const index = job.data.kind === 'shard' ? job.data.index : undefined;
    options.onEvent?.({
      type: 'failed',
      job: job.id ?? job.name,
      ...(index === undefined ? {} : { index }),
      message: error.message,
    });
  });
  // A Redis that restarts is reconnected to by the client; its errors are not the job's. One that
  // stays away past `unreachableMs` ends the worker (watchRedis).
  worker.on('error', () => undefined);
  let unreachable: TfpipeError | undefined;
  const health = watchRedis(options.redis, unreachableMs, (error) => {
    unreachable = error;
    stop();
  });
  const watcher = options.untilPlanDone === undefined ? undefined : watchPlan(Queue, options, stop);
  try {
    if (!stopping.signal.aborted)
      await new Promise((resolve) => stopping.signal.addEventListener('abort', resolve));
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await health.close();
    if (unreachable === undefined) {
      await watcher?.close();
      await worker.close();
    } else {
      // Closing waits for Redis: without it, the connections are dropped (the jobs' locks then
      // expire and other workers run them again, which the commit protocol makes safe).
      // Each step waits at most a few seconds: a client may wait for a Redis that never answers.
      await bounded(worker.disconnect());
      await bounded(worker.close(true));
      await bounded(watcher?.close());
    }
  }
  if (unreachable !== undefined) throw unreachable;
}

/** Waits for `promise` (its failure ignored), at most `ms`. */
async function bounded(promise: Promise<unknown> | undefined, ms = 3000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise?.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Tries a fresh connection to Redis about every fifth of `unreachableMs` (so that refused
 * credentials show too, not only a dropped connection); calls `giveUp` once none has succeeded for
 * `unreachableMs`.
 */
function watchRedis(
  url: string,
  unreachableMs: number,
  giveUp: (error: TfpipeError) => void,
): { close(): Promise<void> } {
  const every = Math.max(50, Math.min(5000, Math.floor(unreachableMs / 5)));
  let closed = false;
  let wake: (() => void) | undefined;
  const watching = (async () => {
    let answered = performance.now();
    while (!closed) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, every).unref();
      });
      if (closed) return;
      try {
        await checkRedis(url, every);
        answered = performance.now();
      } catch (error) {
        const waited = performance.now() - answered;
        if (waited < unreachableMs || closed) continue;
        const detail = TfpipeError.is(error) ? error.message : String(error);
        giveUp(
          new TfpipeError(
            'QUEUE_UNREACHABLE',
            `Redis at ${shownRedis(url)} has not answered for ${Math.round(waited / 1000)} s, the worker gave up (${detail})`,
            {
              stage: 'queue',
              fatal: true,
              cause: error,
              reason:
                'its running shards were stopped and will run again elsewhere; start workers again once Redis answers (the limit is unreachableMs)',
            },
          ),
        );
        return;
      }
    }
  })();
  return {
    async close() {
      closed = true;
      wake?.();
      await watching;
    },
  };
}

/** Polls the finalize job's state, so that a worker that did not run it also stops when it is done. */
function watchPlan(
  QueueClass: typeof Queue,
  options: QueueWorkerOptions,
  stop: () => void,
): { close(): Promise<void> } {
  const queue = new QueueClass(options.queue ?? DEFAULT_QUEUE, { connection: redisOptions(options.redis) });
  const id = finalizeJobId(options.untilPlanDone!);
  let closed = false;
  const poll = async (): Promise<void> => {
    while (!closed) {
      const state = await (await queue.getJob(id).catch(() => undefined))?.getState().catch(() => undefined);
      if (state === 'completed') return stop();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const polling = poll();
  return {
    async close() {
      closed = true;
      await polling;
      await queue.close();
    },
  };
}
