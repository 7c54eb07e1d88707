// Enqueuing looks up the plan's shard jobs in pipelined batches: counted on a real redis-server by
// its own statistics (commands run and socket reads), not by timing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type RedisServer } from '../../../../test-support/redis-server.js';
import type { QueuedPlan } from './plan-jobs.js';
import { enqueuePlan } from './plan-queue.js';

const missing = redisMissing();
if (missing !== undefined && process.env.CI === 'true')
  throw new Error(`CI must run the Redis tests: ${missing}`);
if (missing !== undefined) console.warn(`enqueue-pipelined.redis.test: skipped, ${missing}`);

let redis: RedisServer;
let client: Redis;
let directory: string;
beforeAll(async () => {
  if (missing !== undefined) return;
  redis = await startRedis();
  client = new Redis(redis.url);
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-enqueue-'));
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

/** The server's counts so far: socket reads it processed, and calls of EXISTS. */
async function counts(): Promise<{ reads: number; exists: number }> {
  const stats = await client.info('stats');
  const commands = await client.info('commandstats');
  return {
    reads: Number(/total_reads_processed:(\d+)/.exec(stats)![1]),
    exists: Number(/cmdstat_exists:calls=(\d+)/.exec(commands)?.[1] ?? 0),
  };
}

/** How much each count grew while `run` ran. */
async function growth(run: () => Promise<unknown>): Promise<{ reads: number; exists: number }> {
  const before = await counts();
  await run();
  const after = await counts();
  return { reads: after.reads - before.reads, exists: after.exists - before.exists };
}

describe.skipIf(missing !== undefined)('enqueuing on redis-server', () => {
  it('looks up 3,000 shard jobs with pipelined EXISTS: far fewer socket reads than lookups', async () => {
    // The measure itself: EXISTS sent one at a time costs the server a read each.
    const alone = await growth(async () => {
      for (let index = 0; index < 200; index++) await client.exists(`one-by-one-${index}`);
    });
    expect(alone.exists).toBe(200);
    expect(alone.reads).toBeGreaterThanOrEqual(200);

    const plan: QueuedPlan = { file: join(directory, 'plan.json'), id: 'b'.repeat(64), shardCount: 3000 };
    const first = await growth(() => enqueuePlan(plan, { redis: redis.url, queue: 'pipelined' }));
    const again = await growth(async () => {
      expect((await enqueuePlan(plan, { redis: redis.url, queue: 'pipelined' })).added).toBe(0);
    });
    for (const enqueued of [first, again]) {
      expect(enqueued.exists).toBeGreaterThanOrEqual(3000);
      // Three batches of 1,000 EXISTS (a few reads each), plus BullMQ's own connection set-up and
      // flow; one round trip per lookup would be 3,000 reads.
      expect(enqueued.reads).toBeLessThan(300);
    }
  });
});
