import type { FlowProducer, Queue } from 'bullmq';
import { checkRedis, DEFAULT_QUEUE, redisOptions, type QueueConnectionOptions } from './redis-connection.js';
import { finalizeJobId, shardJobId, type PlanJobData, type QueuedPlan } from './plan-jobs.js';
import { importBullmq } from './import-bullmq.js';
import { importPeer } from '../plugins/import-peer.js';

/** Job keys looked up per pipelined round trip when enqueuing. */
const LOOKUP_BATCH = 1000;

/** How shard jobs are retried. */
export interface EnqueuePlanOptions extends QueueConnectionOptions {
  /** Runs of a shard job before it stays failed (`tfpipe queue resume` re-enqueues it then). @default 3 */
  readonly attempts?: number;
  /** Milliseconds before the first retry, doubling after each. @default 1000 */
  readonly backoffMs?: number;
}

/** What enqueuing added: nothing when the plan was already queued (job ids derive from the plan). */
export interface EnqueueResult {
  readonly queue: string;
  readonly finalizeJob: string;
  /** Shard jobs that were not in the queue before. */
  readonly added: number;
  readonly shards: number;
}

/**
 * Enqueues one BullMQ job per work index under a parent finalize job, which runs once every shard
 * job has completed. Idempotent: the job ids derive from the plan's checksum.
 */
export async function enqueuePlan(plan: QueuedPlan, options: EnqueuePlanOptions): Promise<EnqueueResult> {
  await checkRedis(options.redis);
  const { FlowProducer, Queue } = await importBullmq('tfpipe queue');
  const connection = redisOptions(options.redis);
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const queue: Queue = new Queue(queueName, { connection });
  const flow: FlowProducer = new FlowProducer({ connection });
  try {
    const before = await existingShardJobs(queue, plan, options.redis);
    const finalize: PlanJobData = { kind: 'finalize', plan: plan.file, planId: plan.id };
    await flow.add({
      name: 'finalize',
      queueName,
      data: finalize,
      opts: { jobId: finalizeJobId(plan.id) },
      children: Array.from({ length: plan.shardCount }, (_, index) => ({
        name: 'shard',
        queueName,
        data: { kind: 'shard', plan: plan.file, planId: plan.id, index } satisfies PlanJobData,
        opts: {
          jobId: shardJobId(plan.id, index),
          attempts: options.attempts ?? 3,
          backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
        },
      })),
    });
    return {
      queue: queueName,
      finalizeJob: finalizeJobId(plan.id),
      added: plan.shardCount - before,
      shards: plan.shardCount,
    };
  } finally {
    await Promise.all([queue.close(), flow.close()]);
  }
}

/** Where each job of a plan stands in the queue. */
export interface QueueStatus {
  /** Per work index: BullMQ's state (`waiting`, `active`, `completed`, `failed`, `delayed`…) or `missing`. */
  readonly shards: readonly string[];
  readonly finalize: string;
}

/** The state of every job of the plan. */
export async function queueStatus(plan: QueuedPlan, options: QueueConnectionOptions): Promise<QueueStatus> {
  await checkRedis(options.redis);
  const { Queue } = await importBullmq('tfpipe queue status');
  const queue: Queue = new Queue(options.queue ?? DEFAULT_QUEUE, { connection: redisOptions(options.redis) });
  try {
    const shards = await Promise.all(
      Array.from({ length: plan.shardCount }, (_, index) => stateOf(queue, shardJobId(plan.id, index))),
    );
    return { shards, finalize: await stateOf(queue, finalizeJobId(plan.id)) };
  } finally {
    await queue.close();
  }
}

/** What `resumePlan` did. */
export interface ResumeResult {
  /** Work indexes whose failed job was moved back to waiting. */
  readonly retried: readonly number[];
  /** Work indexes with no job (a Redis that lost its data): enqueued again. */
  readonly reenqueued: readonly number[];
}

/**
 * Re-enqueues the shard jobs that failed for good (after their attempts, or stalled past the
 * limit), and the whole plan when jobs are missing; the parent finalize job then runs as usual.
 */
export async function resumePlan(plan: QueuedPlan, options: EnqueuePlanOptions): Promise<ResumeResult> {
  const status = await queueStatus(plan, options);
  const { Queue } = await importBullmq('tfpipe queue resume');
  const queue: Queue = new Queue(options.queue ?? DEFAULT_QUEUE, { connection: redisOptions(options.redis) });
  const retried: number[] = [];
  try {
    for (const [index, state] of status.shards.entries()) {
      if (state !== 'failed') continue;
      const job = await queue.getJob(shardJobId(plan.id, index));
      await job?.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      retried.push(index);
    }
    if (status.finalize === 'failed') await (await queue.getJob(finalizeJobId(plan.id)))?.retry('failed');
  } finally {
    await queue.close();
  }
  const missing = status.shards.flatMap((state, index) => (state === 'missing' ? [index] : []));
  if (missing.length > 0 || status.finalize === 'missing') await enqueuePlan(plan, options);
  return { retried, reenqueued: missing };
}

async function stateOf(queue: Queue, id: string): Promise<string> {
  const job = await queue.getJob(id);
  return job === undefined ? 'missing' : await job.getState();
}

/**
 * How many of the plan's shard jobs the queue holds: their keys looked up with EXISTS, pipelined in
 * batches of {@link LOOKUP_BATCH} (one round trip each), not one request per job.
 */
async function existingShardJobs(queue: Queue, plan: QueuedPlan, url: string): Promise<number> {
  const { Redis } = await importPeer('ioredis', () => import('ioredis'), 'the tfpipe queue');
  const client = new Redis({ ...redisOptions(url), lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    let count = 0;
    for (let first = 0; first < plan.shardCount; first += LOOKUP_BATCH) {
      const pipeline = client.pipeline();
      const last = Math.min(plan.shardCount, first + LOOKUP_BATCH);
      for (let index = first; index < last; index++) pipeline.exists(queue.toKey(shardJobId(plan.id, index)));
      for (const [error, exists] of (await pipeline.exec()) ?? []) {
        if (error !== null) throw error;
        count += Number(exists);
      }
    }
    return count;
  } finally {
    client.disconnect();
  }
}
