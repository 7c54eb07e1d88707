// The plan queue on a real redis-server: idempotent enqueue, workers killed with SIGKILL, a shard
// that fails once, Redis killed and restarted mid-run, a shard past the stall limit and `resume`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childExit } from '../../../../test-support/child-exit.js';
import { redisMissing, startRedis, type RedisServer } from '../../../../test-support/redis-server.js';
import { enqueuePlan, queueStatus, resumePlan } from './plan-queue.js';
import { checkRedis } from './redis-connection.js';
import { runQueueWorker } from './queue-worker.js';
import type { QueuedPlan } from './plan-jobs.js';

const missing = redisMissing();
if (missing !== undefined && process.env.CI === 'true')
  throw new Error(`CI must run the Redis tests: ${missing}`);
if (missing !== undefined) console.warn(`plan-queue.redis.test: skipped, ${missing}`);

const workerScript = join(
  dirname(fileURLToPath(import.meta.url)),
  '../__fixtures__/queue-worker-process.mjs',
);

let redis: RedisServer;
let directory: string;
beforeAll(async () => {
  if (missing !== undefined) return;
  redis = await startRedis();
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-queue-'));
});
afterAll(async () => {
  await redis?.stop();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

function worker(
  out: string,
  plan: QueuedPlan,
  queue: string,
  env: Record<string, string> = {},
): ChildProcess {
  return spawn(process.execPath, [workerScript], {
    env: { ...process.env, REDIS_URL: redis.url, QUEUE_NAME: queue, OUT_DIR: out, PLAN_ID: plan.id, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(missing !== undefined)('the plan queue on redis-server', () => {
  it('enqueues 8 jobs once, survives killed workers, a failed shard and a Redis restart, finalizes once', async () => {
    const out = await mkdtemp(join(directory, 'run-'));
    const plan: QueuedPlan = { file: join(out, 'plan.json'), id: 'a'.repeat(64), shardCount: 8 };
    const first = await enqueuePlan(plan, { redis: redis.url, queue: 'q1', backoffMs: 100 });
    const second = await enqueuePlan(plan, { redis: redis.url, queue: 'q1', backoffMs: 100 });
    expect([first.added, second.added]).toEqual([8, 0]);
    const queued = await queueStatus(plan, { redis: redis.url, queue: 'q1' });
    expect(queued.shards).toEqual(Array(8).fill('waiting'));
    expect(queued.finalize).toBe('waiting-children');

    // Alone at first, this worker takes shard 0 and dies in it: the job stays active under a lock
    // nobody renews, and another worker runs it once the lock has expired.
    const dying = await childExit(worker(out, plan, 'q1', { CRASH_INDEX: '0' }));
    expect(dying.signal, dying.stderr).toBe('SIGKILL');
    const steady = [
      childExit(worker(out, plan, 'q1', { FAIL_ONCE_INDEX: '5' })),
      childExit(worker(out, plan, 'q1')),
    ];
    await until(
      async () => (await readdir(out)).filter((name) => /^shard-\d$/.test(name)).length >= 2,
      'two shards',
    );
    await redis.restart();
    for (const result of await Promise.all(steady)) expect(result, result.stderr).toMatchObject({ code: 0 });

    const names = (await readdir(out)).filter((name) => !name.startsWith('.')).sort();
    expect(names).toEqual([
      'finalize-runs',
      'manifest',
      ...Array.from({ length: 8 }, (_, index) => `shard-${index}`),
    ]);
    expect((await readFile(join(out, 'finalize-runs'), 'utf8')).trim().split('\n')).toHaveLength(1);
    const status = await queueStatus(plan, { redis: redis.url, queue: 'q1' });
    expect(status).toEqual({ shards: Array(8).fill('completed'), finalize: 'completed' });
    expect((await enqueuePlan(plan, { redis: redis.url, queue: 'q1' })).added).toBe(0);
  }, 90_000);

  it('a shard past the stall limit fails; resume re-enqueues it and the plan finishes', async () => {
    const out = await mkdtemp(join(directory, 'stall-'));
    const plan: QueuedPlan = { file: join(out, 'plan.json'), id: 'b'.repeat(64), shardCount: 2 };
    await enqueuePlan(plan, { redis: redis.url, queue: 'q2', attempts: 1 });
    const stalling = { CRASH_ALWAYS_INDEX: '1', MAX_STALLED: '1', LOCK_MS: '1000' };
    const shardState = async (): Promise<string | undefined> =>
      (await queueStatus(plan, { redis: redis.url, queue: 'q2' })).shards[1];
    // Each run of shard 1 dies; the next worker finds it stalled: once moves it back, twice fails it.
    for (let run = 0; run < 4 && (await shardState()) !== 'failed'; run++) {
      const child = worker(out, plan, 'q2', stalling);
      let ended = false;
      const done = childExit(child).then(() => (ended = true));
      await until(
        async () => ended || (await shardState()) === 'failed',
        'a worker to die or the shard to fail',
      );
      if (!ended) child.kill('SIGTERM');
      await done;
    }
    expect(await shardState()).toBe('failed');
    expect((await queueStatus(plan, { redis: redis.url, queue: 'q2' })).finalize).toBe('waiting-children');
    const finishing = childExit(worker(out, plan, 'q2', { LOCK_MS: '1000' }));
    expect(await resumePlan(plan, { redis: redis.url, queue: 'q2' })).toEqual({
      retried: [1],
      reenqueued: [],
    });
    expect(await finishing).toMatchObject({ code: 0 });
    expect(await readFile(join(out, 'manifest'), 'utf8')).toBe(`${plan.file}\nshard-0\nshard-1\n`);
  }, 90_000);

  it('enqueues a plan of more shards than one lookup batch once (its jobs looked up in pipelined batches)', async () => {
    const plan: QueuedPlan = { file: join(directory, 'wide.json'), id: 'c'.repeat(64), shardCount: 2500 };
    const first = await enqueuePlan(plan, { redis: redis.url, queue: 'q3' });
    const second = await enqueuePlan(plan, { redis: redis.url, queue: 'q3' });
    expect([first.added, second.added]).toEqual([2500, 0]);
    const status = await queueStatus(plan, { redis: redis.url, queue: 'q3' });
    expect(status.shards.filter((state) => state === 'waiting')).toHaveLength(2500);
  }, 120_000);

  it('a worker gives up with QUEUE_UNREACHABLE when Redis stays away or refuses its credentials', async () => {
    for (const loss of ['killed', 'password'] as const) {
      const own = await startRedis();
      const plan: QueuedPlan = { file: join(directory, `${loss}.json`), id: 'd'.repeat(64), shardCount: 1 };
      await enqueuePlan(plan, { redis: own.url, queue: 'q4' });
      // The shard job runs until the worker stops it: Redis goes away while it runs.
      const events: string[] = [];
      const running = runQueueWorker({
        redis: own.url,
        queue: 'q4',
        unreachableMs: 1500,
        work: (_plan, _index, signal) =>
          new Promise<void>((resolve) => {
            events.push('work started');
            signal.addEventListener('abort', () => {
              events.push('work stopped');
              resolve();
            });
          }),
        finalize: () => {
          events.push('finalize');
          return Promise.resolve();
        },
      }).catch((error: unknown) => error);
      await until(() => Promise.resolve(events.length > 0), 'the shard job to start');
      if (loss === 'killed') await own.stop();
      else {
        // New connections must now give a password; the worker's open ones stay authenticated.
        const admin = new Redis(own.url);
        await admin.config('SET', 'requirepass', 'another-secret');
        admin.disconnect();
      }
      const error = await running;
      expect(error, loss).toMatchObject({ code: 'QUEUE_UNREACHABLE', fatal: true });
      expect(String((error as Error).message)).toContain('has not answered');
      if (loss === 'password') expect(String((error as Error).message)).toContain('NOAUTH');
      expect(events).toEqual(['work started', 'work stopped']);
      await own.stop();
    }
  }, 60_000);

  it('an unreachable Redis is QUEUE_UNREACHABLE at once, naming the URL without its password', async () => {
    const error = await checkRedis(`redis://user:secret@127.0.0.1:${redis.port + 1}`, 2000).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'QUEUE_UNREACHABLE' });
    expect(String((error as Error).message)).toContain('redis://user:***@127.0.0.1');
    expect(String((error as Error).message)).not.toContain('secret');
  });
});
