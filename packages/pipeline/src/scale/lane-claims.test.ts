import { fork, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlanFile } from './plan-file.js';
import { planPipeline } from './plan-pipeline.js';
import { removeStaleClaims, runPlannedPipeline } from './run-planned.js';
import { markerDirectory, readMarker } from './shard-marker.js';
import { workShard } from './work-shard.js';

const workerScript = fileURLToPath(new URL('../../dist/work-child.js', import.meta.url));
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-lane-claims-'));
  const lines = ['id,text'];
  // Enough rows that a task takes many turns of the child's event loop.
  for (let id = 0; id < 60_000; id++) lines.push(`${id},row ${id}`);
  await writeFile(join(directory, 'rows.csv'), `${lines.join('\n')}\n`);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** The PID of a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const config = (out: string) => ({
  source: { plugin: 'csv', options: { path: join(directory, 'rows.csv') } },
  sink: { plugin: 'tfrecord', options: { directory: join(directory, out), shards: 6 } },
});

describe("the lanes' task directories", () => {
  it('removes those of runs on this host whose process is gone, and only those', async () => {
    const temporary = await mkdtemp(join(directory, 'tmp-'));
    const names = {
      killed: `tfpipe-claims-${deadPid()}-${HOST}-abc123`,
      alive: `tfpipe-claims-${process.ppid}-${HOST}-abc123`,
      mine: `tfpipe-claims-${process.pid}-${HOST}-abc123`,
      otherHost: `tfpipe-claims-${deadPid()}-0badc0de-abc123`,
      older: 'tfpipe-claims-abc123',
    };
    for (const name of Object.values(names)) await mkdir(join(temporary, name, '0'), { recursive: true });
    expect(await removeStaleClaims(temporary)).toEqual([names.killed]);
    expect((await readdir(temporary)).sort()).toEqual(
      [names.alive, names.mine, names.otherHost, names.older].sort(),
    );
  });

  it('are swept by the next run --workers, which leaves none of its own', async () => {
    const stale = join(tmpdir(), `tfpipe-claims-${deadPid()}-${HOST}-stale1`);
    await mkdir(join(stale, '3'), { recursive: true });
    await runPlannedPipeline(config('swept'), { workers: 2, workerScript });
    expect(existsSync(stale)).toBe(false);
    const own = (await readdir(tmpdir())).filter((name) => name.startsWith(`tfpipe-claims-${process.pid}-`));
    expect(own).toEqual([]);
  }, 120_000);
});

describe('a work child whose parent has gone', () => {
  it('takes no more tasks, and what it took is committed whole', async () => {
    const plan = await planPipeline(config('orphan'), { shards: 6 });
    const planFile = join(directory, 'orphan.plan.json');
    await writePlanFile(plan, planFile);
    const claims = await mkdtemp(join(directory, 'claims-'));
    const tasks = plan.shards.map(({ index }) => ({ index }));
    const child = fork(workerScript, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The parent goes once the child works its first task (its first progress message): the channel closes.
    child.once('message', () => child.disconnect());
    child.send({ plan: planFile, lanes: 2, tasks, claims });
    expect(await exited).toBe(0);
    const taken = (await readdir(claims)).map(Number);
    // It took the task under way (and the next, started once the first had read its input); without
    // the stop it took all six.
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.length).toBeLessThan(tasks.length);
    for (const index of taken) expect(await readMarker(plan, index)).toBeDefined();
    const names = await readdir(plan.directory).catch(() => [] as string[]);
    expect(names.filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
  }, 120_000);
});

describe('a run --workers killed before finalize, run again', () => {
  /** The output files of `out` (not hidden), name → bytes. */
  async function filesOf(out: string): Promise<Map<string, Buffer>> {
    const names = (await readdir(join(directory, out))).filter((name) => !name.startsWith('.')).sort();
    return new Map(
      await Promise.all(
        names.map(async (name) => [name, await readFile(join(directory, out, name))] as const),
      ),
    );
  }

  it('keeps the indexes it committed and ends with the bytes of a run never killed; a finished one is refused', async () => {
    // What a killed run leaves: its plan file in the marker directory, some indexes committed, no manifest.
    const plan = await planPipeline(config('killed'), { shards: 6 });
    await mkdir(markerDirectory(plan), { recursive: true });
    await writePlanFile(plan, join(markerDirectory(plan), 'plan.json'));
    for (const index of [1, 4]) await workShard(plan, index);
    const committed = await readFile(join(plan.directory, 'data-00001-of-00006.tfrecord'));
    const resumed = await runPlannedPipeline(config('killed'), { workers: 2, workerScript });
    expect(resumed.plan.checksum).toBe(plan.checksum);
    await runPlannedPipeline(config('whole'), { workers: 2, workerScript });
    const [reference, written] = [await filesOf('whole'), await filesOf('killed')];
    expect([...written.keys()]).toEqual([...reference.keys()]);
    for (const [name, bytes] of reference) expect(written.get(name)!.equals(bytes), name).toBe(true);
    expect(written.get('data-00001-of-00006.tfrecord')!.equals(committed)).toBe(true);
    // A finished run (its manifest written) is not run again.
    await expect(runPlannedPipeline(config('killed'), { workers: 2, workerScript })).rejects.toMatchObject({
      code: 'OUTPUT_EXISTS',
    });
  }, 120_000);
});
