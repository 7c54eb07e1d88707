import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestImages } from '../../../test-support/test-images.js';
import { expectPlannedOutput } from './__fixtures__/planned-output.js';
import { BIN, tfpipe as tfpipeInProcess, type CliResult } from './__fixtures__/run-cli.js';

// Workers started as the schedulers start them: each with its own scheduler variable, no --index.
const SCHEDULER_VARIABLES = ['JOB_COMPLETION_INDEX', 'SLURM_ARRAY_TASK_ID', 'AWS_BATCH_JOB_ARRAY_INDEX'];
const ROWS = 6000;
const SHARDS = 8;
/** Images of the image plan (a list with class names and an `id` column), resized by sharp. */
const IMAGES = 40;
/**
 * Shards (and so worker processes) of the image plan: one that finishes and one for each crash point
 * (every process loads sharp; the CSV plan above runs eight).
 */
const IMAGE_SHARDS = 4;
const CLASSES = ['cat', 'dog', 'owl'];

let directory: string;

/** Rows with quoted newlines, doubled quotes and delimiters in a third of them. */
function trickyCsv(rows: number): string {
  const lines = Array.from({ length: rows }, (_, index) => {
    const text = index % 3 === 0 ? `"first\nsecond ""quoted"", ${index}\n"` : `plain text ${index}`;
    return `${index},${text},${(index % 11) / 4}`;
  });
  return `id,text,score\n${lines.join('\n')}\n`;
}

/** `tfpipe ...args` as its own process with extra environment variables (none inherited of the schedulers). */
function tfpipe(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<CliResult & { signal: string | null }> {
  const env = { ...process.env, ...environment };
  for (const name of [...SCHEDULER_VARIABLES, 'CLOUD_RUN_TASK_INDEX', 'BATCH_TASK_INDEX']) {
    if (!(name in environment)) delete env[name];
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: directory, env }, (error, stdout, stderr) => {
      const failed = error as (Error & { code?: number; signal?: string }) | null;
      resolve({
        code: typeof failed?.code === 'number' ? failed.code : failed ? 1 : 0,
        signal: failed?.signal ?? null,
        stdout,
        stderr,
      });
    });
  });
}

/**
 * `tfpipe ...args` in this process (`main`), in the test directory: for plan, status, finalize, the
 * reruns and `run` (whose workers are forked processes all the same), which nothing kills; the workers
 * that are killed, or that read a scheduler variable, stay processes of their own.
 */
function here(args: readonly string[]): Promise<CliResult> {
  return tfpipeInProcess(args, { cwd: directory });
}

/** Works `indexes` three at a time, each with the scheduler variable of its turn and a crash point if given. */
async function workAll(
  indexes: readonly number[],
  crashes: Readonly<Record<number, string>> = {},
  planFile = 'plan.json',
) {
  const results: Record<number, Awaited<ReturnType<typeof tfpipe>>> = {};
  for (let start = 0; start < indexes.length; start += 3) {
    await Promise.all(
      indexes.slice(start, start + 3).map(async (index, turn) => {
        const environment: Record<string, string> = { [SCHEDULER_VARIABLES[turn]!]: String(index) };
        if (crashes[index] !== undefined) environment.TFPIPE_TEST_CRASH = crashes[index];
        results[index] = await tfpipe(['work', planFile, '--quiet'], environment);
      }),
    );
  }
  return results;
}

/**
 * Works `indexes` again in this process (`main`, with `--index`), all at once: the reruns after the
 * kills, whose processes nothing kills (the scheduler variables and the kills are the first pass's).
 */
async function reworkAll(indexes: readonly number[], planFile = 'plan.json') {
  const results: Record<number, CliResult> = {};
  await Promise.all(
    indexes.map(async (index) => {
      results[index] = await here(['work', planFile, '--index', String(index), '--quiet']);
    }),
  );
  return results;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-scale-'));
  await writeFile(join(directory, 'rows.csv'), trickyCsv(ROWS));
  for (const name of ['scaled', 'single', 'two', 'twice']) {
    await writeFile(
      join(directory, `${name}.yaml`),
      `source:\n  plugin: csv\n  options: { path: rows.csv }\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}, shards: ${SHARDS} }\n`,
    );
  }
  // Classes in an order that is not sorted, so that the label map comes from the plan, not from a shard.
  const names = Array.from({ length: IMAGES }, (_, id) => `${CLASSES[(id * 7) % 3]}/${id}.png`);
  await writeTestImages(join(directory, 'pics'), names);
  const list = names.map((name, id) => JSON.stringify({ path: name, label: name.split('/')[0], id }));
  await writeFile(join(directory, 'pics', 'list.jsonl'), `${list.join('\n')}\n`);
  for (const name of ['images-scaled', 'images-single', 'images-two']) {
    await writeFile(
      join(directory, `${name}.yaml`),
      `source:\n  plugin: images\n  options: { list: pics/list.jsonl, resize: { width: 12, height: 12 }, format: png }\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}, shards: ${IMAGE_SHARDS} }\n`,
    );
  }
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('tfpipe plan / work / finalize with workers killed', () => {
  it('loses and duplicates nothing when workers die at each crash point, and matches runs on 1 and 2 workers', async () => {
    expect((await here(['plan', 'scaled.yaml', '--out', 'plan.json'])).code).toBe(0);
    const crashes = { 2: 'mid-write', 5: 'before-rename', 7: 'before-marker' };
    const first = await workAll([0, 1, 2, 3, 4, 5, 6, 7], crashes);
    for (const index of [2, 5, 7]) expect(first[index]!.signal).toBe('SIGKILL');
    for (const index of [0, 1, 3, 4, 6]) expect(first[index]!.code).toBe(0);

    const status = await here(['status', 'plan.json', '--json']);
    expect(JSON.parse(status.stdout)).toEqual({ done: [0, 1, 3, 4, 6], running: [], missing: [2, 5, 7] });
    const refused = await here(['finalize', 'plan.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('indexes 2, 5, 7');
    expect(refused.stderr).toContain('SHARD_INCOMPLETE');
    expect(
      (await readdir(join(directory, 'scaled'))).filter((name) => name.endsWith('.manifest.json')),
    ).toEqual([]);

    // The killed indexes again, and a finished one (a no-op).
    const again = await reworkAll([2, 5, 7, 3]);
    for (const index of [2, 5, 7, 3]) expect(again[index]!.code).toBe(0);
    expect((await here(['work', 'plan.json', '--index', '3'])).stdout).toContain('committed already');
    const finalized = await here(['finalize', 'plan.json']);
    expect(finalized.code, finalized.stderr).toBe(0);
    expect((await here(['finalize', 'plan.json'])).code).toBe(0);

    const single = await here(['run', 'single.yaml', '--workers', '1', '--quiet']);
    expect(single.code, single.stderr).toBe(0);
    const two = await here(['run', 'two.yaml', '--workers', '2', '--quiet']);
    expect(two.code, two.stderr).toBe(0);
    await expectPlannedOutput(join(directory, 'scaled'), join(directory, 'single'), SHARDS, ROWS);
    await expectPlannedOutput(join(directory, 'scaled'), join(directory, 'two'), SHARDS, ROWS);
    const shardNames = Array.from({ length: SHARDS }, (_, index) => `data-0000${index}-of-00008.tfrecord`);
    const manifest = JSON.parse(await readFile(join(directory, 'scaled', 'data.manifest.json'), 'utf8'));
    expect(manifest.records).toBe(ROWS);
    expect(manifest.shards.map((shard: { name: string }) => shard.name)).toEqual(shardNames);
  }, 240_000);

  it('does the same for an image list resized by sharp: label map from the plan, one labels.txt', async () => {
    expect((await here(['plan', 'images-scaled.yaml', '--out', 'images.json'])).code).toBe(0);
    const plan = JSON.parse(await readFile(join(directory, 'images.json'), 'utf8'));
    expect(plan.units.length).toBeGreaterThanOrEqual(IMAGE_SHARDS);
    const crashes = { 1: 'mid-write', 2: 'before-rename', 3: 'before-marker' };
    const first = await workAll([0, 1, 2, 3], crashes, 'images.json');
    for (const index of [1, 2, 3]) expect(first[index]!.signal).toBe('SIGKILL');
    expect(first[0]!.code, first[0]!.stderr).toBe(0);
    const refused = await here(['finalize', 'images.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('indexes 1, 2, 3');
    const again = await reworkAll([1, 2, 3, 0], 'images.json');
    for (const index of [1, 2, 3, 0]) expect(again[index]!.code, again[index]!.stderr).toBe(0);
    const finalized = await here(['finalize', 'images.json']);
    expect(finalized.code, finalized.stderr).toBe(0);

    const single = await here(['run', 'images-single.yaml', '--workers', '1', '--quiet']);
    expect(single.code, single.stderr).toBe(0);
    const two = await here(['run', 'images-two.yaml', '--workers', '2', '--quiet']);
    expect(two.code, two.stderr).toBe(0);
    const [scaled, reference, twoOut] = ['images-scaled', 'images-single', 'images-two'].map((name) =>
      join(directory, name),
    ) as [string, string, string];
    await expectPlannedOutput(scaled, reference, IMAGE_SHARDS, IMAGES, ['labels.txt']);
    await expectPlannedOutput(scaled, twoOut, IMAGE_SHARDS, IMAGES, ['labels.txt']);
    expect(await readFile(join(scaled, 'labels.txt'), 'utf8')).toBe('0:cat\n1:dog\n2:owl\n');
  }, 240_000);

  it('refuses planning over output, a missing scheduler variable, an index out of range and a plan of another version', async () => {
    const again = await here(['plan', 'scaled.yaml', '--shards', '2', '--out', 'other.json']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('OUTPUT_EXISTS');
    const missing = await tfpipe(['work', 'plan.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pass --index I');
    expect(missing.stderr).toContain('JOB_COMPLETION_INDEX');
    const range = await tfpipe(['work', 'plan.json'], { SLURM_ARRAY_TASK_ID: '8' });
    expect(range.stderr).toMatch(/index 8 is out of range.*\[PLAN_INDEX\]/);
    const plan = JSON.parse(await readFile(join(directory, 'plan.json'), 'utf8'));
    await writeFile(join(directory, 'old.json'), JSON.stringify({ ...plan, planVersion: 0 }));
    const old = await here(['work', 'old.json', '--index', '0']);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/planVersion 0.*\[PLAN_INVALID\]/);
  }, 60_000);

  it('lets two runs of one index at once both succeed with the same bytes', async () => {
    expect((await here(['plan', 'twice.yaml', '--out', 'twice.json'])).code).toBe(0);
    const runs = await Promise.all([
      tfpipe(['work', 'twice.json', '--index', '0']),
      tfpipe(['work', 'twice.json'], { CLOUD_RUN_TASK_INDEX: '0' }),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const name = 'data-00000-of-00008.tfrecord';
    const written = await readFile(join(directory, 'twice', name));
    expect(written.equals(await readFile(join(directory, 'single', name)))).toBe(true);
    expect((await readdir(join(directory, 'twice'))).filter((item) => item.includes('tfpipe-tmp'))).toEqual(
      [],
    );
    const status = JSON.parse((await here(['status', 'twice.json', '--json'])).stdout);
    expect(status.done).toEqual([0]);
  }, 60_000);
});
