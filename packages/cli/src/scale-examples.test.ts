// The scheduler examples in examples/ run as written (their shell and their commands), here with
// this build of tfpipe on PATH and the scheduler's index variable set by hand: the Slurm scripts
// end to end, the Kubernetes and AWS Batch commands as their containers would run them.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tfpipe } from './__fixtures__/run-cli.js';

const EXAMPLES = join(import.meta.dirname, '../../../examples');
let directory: string;
let env: NodeJS.ProcessEnv;

function run(file: string, args: readonly string[], extra: Record<string, string> = {}) {
  return new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(file, args, { cwd: directory, env: { ...env, ...extra } }, (error, _stdout, stderr) => {
      const failed = error as (Error & { code?: number }) | null;
      resolve({ code: typeof failed?.code === 'number' ? failed.code : failed ? 1 : 0, stderr });
    });
  });
}

async function planned(name: string): Promise<string> {
  await writeFile(
    join(directory, `${name}.yaml`),
    `source:\n  plugin: csv\n  options: { path: rows.csv }\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}, shards: 3 }\n`,
  );
  const plan = join(directory, `${name}.json`);
  // Planning is not what the examples show: in this process (the examples' commands run the binary).
  expect((await tfpipe(['plan', `${name}.yaml`, '--out', plan], { cwd: directory })).code).toBe(0);
  return plan;
}

const tfrecords = async (name: string): Promise<string[]> =>
  (await readdir(join(directory, name))).filter((file) => !file.startsWith('.')).sort();

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-examples-'));
  const bin = join(directory, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'tfpipe'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(bin, 'tfpipe'), 0o755);
  env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  const rows = Array.from({ length: 300 }, (_, index) => `${index},row ${index}`);
  await writeFile(join(directory, 'rows.csv'), `id,text\n${rows.join('\n')}\n`);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const expected = [
  'data-00000-of-00003.tfrecord',
  'data-00001-of-00003.tfrecord',
  'data-00002-of-00003.tfrecord',
];

describe('examples/ for schedulers', () => {
  it('slurm: the array script per SLURM_ARRAY_TASK_ID, then the afterany finalize script', async () => {
    const plan = await planned('slurm');
    const finalize = join(EXAMPLES, 'slurm/tfpipe-finalize.sbatch');
    expect((await run('bash', [finalize, plan])).code).toBe(1); // nothing worked yet: the indexes to run
    for (const index of [0, 1, 2]) {
      const result = await run('bash', [join(EXAMPLES, 'slurm/tfpipe.sbatch'), plan], {
        SLURM_ARRAY_TASK_ID: String(index),
      });
      expect(result.code, result.stderr).toBe(0);
    }
    expect((await run('bash', [finalize, plan])).code).toBe(0);
    expect(await tfrecords('slurm')).toEqual([...expected, 'data.manifest.json', 'reader_spec.py']);
  }, 120_000);

  it('kubernetes and AWS Batch: the containers’ commands, with the index each scheduler sets', async () => {
    const manifest = await readFile(join(EXAMPLES, 'kubernetes/tfpipe-plan.yaml'), 'utf8');
    const commands = [...manifest.matchAll(/command: (\[.*\])/g)].map(
      (match) => JSON.parse(match[1]!.replaceAll("'", '"')) as string[],
    );
    expect(commands.map((command) => command.slice(0, 3))).toEqual([
      ['npx', '--yes', '@tfpipe/cli'],
      ['npx', '--yes', '@tfpipe/cli'],
    ]);
    const plan = await planned('kubernetes');
    const withPlan = (command: string[]): string[] =>
      command.slice(3).map((arg) => (arg === '/data/plan.json' ? plan : arg));
    for (const index of [0, 1, 2])
      expect(
        (await run('tfpipe', withPlan(commands[0]!), { JOB_COMPLETION_INDEX: String(index) })).code,
      ).toBe(0);
    expect((await run('tfpipe', withPlan(commands[1]!))).code).toBe(0);
    expect(await tfrecords('kubernetes')).toEqual([...expected, 'data.manifest.json', 'reader_spec.py']);

    const definition = JSON.parse(await readFile(join(EXAMPLES, 'aws-batch/job-definition.json'), 'utf8'));
    const command = (definition.containerProperties.command as string[]).slice(3);
    const awsPlan = await planned('aws');
    for (const index of [0, 1, 2]) {
      const args = command.map((arg) => (arg === 'Ref::plan' ? awsPlan : arg));
      expect((await run('tfpipe', args, { AWS_BATCH_JOB_ARRAY_INDEX: String(index) })).code).toBe(0);
    }
    expect((await run('tfpipe', ['finalize', awsPlan])).code).toBe(0);
    expect(await tfrecords('aws')).toEqual([...expected, 'data.manifest.json', 'reader_spec.py']);
    for (const script of ['aws-batch/submit.sh', 'slurm/tfpipe.sbatch', 'slurm/tfpipe-finalize.sbatch'])
      expect((await run('bash', ['-n', join(EXAMPLES, script)])).code, script).toBe(0);
  }, 120_000);
});
