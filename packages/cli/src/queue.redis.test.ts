// `tfpipe queue` and `tfpipe worker` on a real redis-server over an 8-shard plan: workers killed, a
// shard's process killed after its rename, Redis killed and restarted mid-run; the output is the
// single-process run's, byte for byte.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type RedisServer } from '../../../test-support/redis-server.js';
import { childExit } from '../../../test-support/child-exit.js';
import { expectPlannedOutput } from './__fixtures__/planned-output.js';
import { BIN, tfpipe as tfpipeInProcess, type CliResult } from './__fixtures__/run-cli.js';

const missing = redisMissing();
if (missing !== undefined && process.env.CI === 'true')
  throw new Error(`CI must run the Redis tests: ${missing}`);
if (missing !== undefined) console.warn(`queue.redis.test: skipped, ${missing}`);

const ROWS = 4000;
const SHARDS = 8;
let redis: RedisServer;
let directory: string;

/**
 * `tfpipe …` in the test's folder, in this process: the commands around the workers (plan, queue,
 * status, run) need no process of their own; the workers, which are killed, run the built binary.
 */
function tfpipe(args: readonly string[]): Promise<CliResult> {
  return tfpipeInProcess(args, { cwd: directory });
}

function worker(env: Record<string, string> = {}): ChildProcess {
  const args = ['worker', '--redis', redis.url, '--until-done', 'plan.json', '--lock-ms', '2000'];
  return spawn(process.execPath, [BIN, ...args], {
    cwd: directory,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

beforeAll(async () => {
  if (missing !== undefined) return;
  redis = await startRedis();
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-queue-cli-'));
  const rows = Array.from({ length: ROWS }, (_, index) => `${index},"text ${index}\nline two",${index / 4}`);
  await writeFile(join(directory, 'rows.csv'), `id,text,score\n${rows.join('\n')}\n`);
  for (const name of ['queued', 'single'])
    await writeFile(
      join(directory, `${name}.yaml`),
      `source:\n  plugin: csv\n  options: { path: rows.csv }\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}, shards: ${SHARDS} }\n`,
    );
});
afterAll(async () => {
  await redis?.stop();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)('tfpipe queue / worker on redis-server', () => {
  it('enqueues once, survives killed workers and a Redis restart, and writes the single-process bytes', async () => {
    expect((await tfpipe(['plan', 'queued.yaml', '--out', 'plan.json'])).code).toBe(0);
    const queued = await tfpipe(['queue', 'plan.json', '--redis', redis.url]);
    expect(queued.stdout, queued.stderr).toContain(`queued ${SHARDS} of ${SHARDS}`);
    expect((await tfpipe(['queue', 'plan.json', '--redis', redis.url])).stdout).toContain(
      `queued 0 of ${SHARDS}`,
    );

    // One worker's first shard process dies after renaming its files, before its commit marker;
    // another's dies mid-write once; a third worker is killed outright while it works.
    const once = (name: string): Record<string, string> => ({
      TFPIPE_TEST_CRASH: name,
      TFPIPE_TEST_CRASH_ONCE: join(directory, `crash-${name}`),
    });
    const steady = [childExit(worker(once('before-marker'))), childExit(worker(once('mid-write')))];
    const doomed = worker();
    const doomedExit = childExit(doomed);
    // Once two shards are committed (every worker is past its start), kill one and restart Redis.
    const started = Date.now();
    while (
      (await readdir(join(directory, 'queued')).catch(() => [])).filter((name) => name.endsWith('.tfrecord'))
        .length < 2
    ) {
      if (Date.now() - started > 60_000) throw new Error('no shard committed within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    doomed.kill('SIGKILL');
    expect((await doomedExit).signal).toBe('SIGKILL');
    await redis.restart();
    for (const result of await Promise.all(steady)) expect(result, result.stderr).toMatchObject({ code: 0 });
    // Both shard processes that were told to die did (the first to reach each point).
    const markers = (await readdir(directory)).filter((name) => name.startsWith('crash-')).sort();
    expect(markers).toEqual(['crash-before-marker', 'crash-mid-write']);
    const status = await tfpipe(['queue', 'status', 'plan.json', '--redis', redis.url, '--json']);
    expect(JSON.parse(status.stdout)).toEqual({
      shards: Array(SHARDS).fill('completed'),
      finalize: 'completed',
    });

    expect((await tfpipe(['run', 'single.yaml', '--workers', '1', '--quiet'])).code).toBe(0);
    await expectPlannedOutput(join(directory, 'queued'), join(directory, 'single'), SHARDS, ROWS);
  }, 180_000);

  it('tfpipe worker refuses a stray argument, and gives up once Redis has gone for --unreachable-ms', async () => {
    const stray = await tfpipe(['worker', 'plan.json', '--redis', redis.url]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('unexpected argument "plan.json"');
    const own = await startRedis();
    const args = ['worker', '--redis', own.url, '--queue', 'gone', '--unreachable-ms', '1000'];
    const exit = childExit(spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] }));
    // Redis goes away once the worker is connected (its clients are listed), not before.
    const clients = (): Promise<number> =>
      new Promise((resolve) => {
        execFile('redis-cli', ['-p', String(own.port), 'client', 'list'], (_error, stdout) =>
          resolve(stdout.split('\n').filter((line) => line.includes('addr=')).length),
        );
      });
    while ((await clients()) < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    await own.stop();
    const ended = await exit;
    expect(ended.code, ended.stderr).toBe(1);
    expect(ended.stderr).toContain('has not answered');
    expect(ended.stderr).toContain('--unreachable-ms');
    expect(ended.stderr).toContain('QUEUE_UNREACHABLE');
  }, 60_000);

  it('an unreachable Redis and a missing --redis are clear errors', async () => {
    const unreachable = await tfpipe([
      'queue',
      'plan.json',
      '--redis',
      `redis://127.0.0.1:${redis.port + 1}`,
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('QUEUE_UNREACHABLE');
    const none = await tfpipe(['worker']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--redis');
  }, 60_000);
});
