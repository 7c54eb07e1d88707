import type { Job, Queue, Worker } from 'bullmq';
import { DEFAULT_QUEUE, checkRedis, redisOptions, type QueueConnectionOptions } from './redis-connection.js';
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
  // A Redis that restarts is reconnected to by the client; its errors are not the job's.
  worker.on('error', () => undefined);
  const watcher = options.untilPlanDone === undefined ? undefined : watchPlan(Queue, options, stop);
  try {
    if (!stopping.signal.aborted)
      await new Promise((resolve) => stopping.signal.addEventListener('abort', resolve));
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await watcher?.close();
    await worker.close();
  }
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
