import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalizePlan } from './finalize-plan.js';
import { writePlanFile } from './plan-file.js';
import { planPipeline } from './plan-pipeline.js';
import { handOutTasks } from './run-planned.js';
import { markerDirectory } from './shard-marker.js';

const workerScript = fileURLToPath(new URL('../../dist/work-child.js', import.meta.url));

describe('the worker process of run --workers', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'tfpipe-work-child-'));
    const lines = ['id,text'];
    for (let id = 0; id < 400; id++)
      lines.push(`${id},${id % 3 === 0 ? `"quoted\nline ${id}"` : `row ${id}`}`);
    await writeFile(join(directory, 'rows.csv'), `${lines.join('\n')}\n`);
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const config = (out: string) => ({
    source: { plugin: 'csv', options: { path: join(directory, 'rows.csv') } },
    sink: { plugin: 'tfrecord', options: { directory: join(directory, out), shards: 3 } },
  });

  it('told the plugins to load while the plan is made, waits for the plan and works every task', async () => {
    const plan = await planPipeline(config('child'));
    const planFile = join(markerDirectory(plan), 'plan.json');
    await mkdir(markerDirectory(plan), { recursive: true });
    await writePlanFile(plan, planFile);
    const tasks = handOutTasks(plan, 2);
    const claims = join(directory, 'claims');
    await mkdir(claims);
    const child = fork(workerScript, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const done: number[] = [];
    const failed: unknown[] = [];
    child.on('message', (message: { done?: number; failed?: number; error?: unknown }) => {
      if (message.done !== undefined) done.push(message.done);
      if (message.failed !== undefined) failed.push(message.error);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // An unknown name is left to the task's own plugin load to report; a known one is loaded now.
    child.send({ warm: ['csv', 'tfrecord', 'no-such-plugin'] });
    child.send({ plan: planFile, lanes: 1, tasks, claims });
    expect(await exited).toBe(0);
    expect(failed).toEqual([]);
    // No other lane: the child took every task, whole indexes and parts alike.
    expect(done.sort((left, right) => left - right)).toEqual(tasks.map((_, id) => id));
    expect(tasks.some((task) => task.units !== undefined)).toBe(true);
    // Its parts are joined by the parent; here only whole indexes are committed, so finalize waits.
    await expect(finalizePlan(plan)).rejects.toMatchObject({ code: 'SHARD_INCOMPLETE' });
  });

  it('leaves when told to exit after the plugins, without a plan', async () => {
    const child = fork(workerScript, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.send({ warm: ['parquet', 'tfrecord'] });
    child.send({ exit: true });
    expect(await exited).toBe(0);
  });
});
