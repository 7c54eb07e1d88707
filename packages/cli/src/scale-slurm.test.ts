// examples/slurm on a real one-node Slurm (Debian's slurmctld, slurmd, slurm-client and munge, all
// started here with their own configuration, socket, ports and state in a temporary folder; no
// systemd): `sbatch --array` of tfpipe.sbatch, then tfpipe-finalize.sbatch with
// `--dependency=afterany`, as the scripts' header says. Skips, naming the packages, where they are
// not installed or this is not root (slurmd must be).
import { execFile, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlannedOutput } from './__fixtures__/planned-output.js';
import { BIN } from './__fixtures__/run-cli.js';

const EXAMPLES = join(import.meta.dirname, '../../../examples/slurm');
const ROWS = 600;
const SHARDS = 4;
const PACKAGES = 'slurmctld slurmd slurm-client munge';

function slurmMissing(): string | undefined {
  for (const program of ['slurmctld', 'slurmd', 'sbatch', 'munged']) {
    if (spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0)
      return `${program} is not installed (Debian packages ${PACKAGES}: apt-get install ${PACKAGES})`;
  }
  if (process.getuid?.() !== 0) return 'slurmd must run as root';
  return undefined;
}

const missing = slurmMissing();
if (missing !== undefined) console.warn(`scale-slurm.test: skipped, ${missing}`);

let directory: string;
let env: NodeJS.ProcessEnv;

/** `file ...args` with the cluster's environment; resolves with its exit code and output. */
function run(file: string, args: readonly string[], cwd = join(directory, 'job')) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { cwd, env }, (error, stdout, stderr) => {
      const failed = error as (Error & { code?: number }) | null;
      resolve({ code: typeof failed?.code === 'number' ? failed.code : failed ? 1 : 0, stdout, stderr });
    });
  });
}

/** Whether process `pid` has ended (gone, or a zombie no one reaps: daemons are reparented). */
async function ended(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** Stops a daemon this test started, by its pid file, and waits for it to end. */
async function stopDaemon(pidFile: string): Promise<void> {
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  if (!(pid > 0)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  while (!(await ended(pid))) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe.skipIf(missing !== undefined)('examples/slurm on a one-node Slurm', () => {
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'tfpipe-slurm-'));
    for (const name of ['state', 'spool', 'log', 'bin', 'job']) await mkdir(join(directory, name));
    const at = (name: string): string => join(directory, name);
    await writeFile(
      at('munge.key'),
      Buffer.from(Array.from({ length: 1024 }, (_, index) => (index * 131 + 7) % 256)),
      {
        mode: 0o600,
      },
    );
    const started = spawnSync('munged', [
      '--force',
      `--socket=${at('munge.sock')}`,
      `--key-file=${at('munge.key')}`,
      `--pid-file=${at('munged.pid')}`,
      `--log-file=${at('log/munged.log')}`,
      `--seed-file=${at('munge.seed')}`,
    ]);
    expect(started.status, started.stderr.toString()).toBe(0);
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    const host = hostname();
    const conf = [
      'ClusterName=tfpipe',
      `SlurmctldHost=${host}(127.0.0.1)`,
      'SlurmUser=root',
      'SlurmdUser=root',
      'AuthType=auth/munge',
      `AuthInfo=socket=${at('munge.sock')}`,
      'CredType=cred/munge',
      `SlurmctldPort=${port}`,
      `SlurmdPort=${port + 1}`,
      `StateSaveLocation=${at('state')}`,
      `SlurmdSpoolDir=${at('spool')}`,
      `SlurmctldPidFile=${at('slurmctld.pid')}`,
      `SlurmdPidFile=${at('slurmd.pid')}`,
      `SlurmctldLogFile=${at('log/slurmctld.log')}`,
      `SlurmdLogFile=${at('log/slurmd.log')}`,
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'JobAcctGatherType=jobacct_gather/none',
      // Scheduled on every event, and a dependency looked at every second, not every minute.
      'SchedulerType=sched/builtin',
      'SchedulerParameters=sched_interval=1,sched_min_interval=100000',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'ReturnToService=2',
      'MpiDefault=none',
      `NodeName=${host} NodeAddr=127.0.0.1 CPUs=2 RealMemory=8000 State=UNKNOWN`,
      'PartitionName=tfpipe Nodes=ALL Default=YES MaxTime=INFINITE State=UP',
    ];
    await writeFile(at('slurm.conf'), `${conf.join('\n')}\n`);
    // tfpipe on PATH as the scripts call it: this build.
    await writeFile(at('bin/tfpipe'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(at('bin/tfpipe'), 0o755);
    env = {
      ...process.env,
      SLURM_CONF: at('slurm.conf'),
      PATH: `${at('bin')}${delimiter}${process.env.PATH ?? ''}`,
    };
    for (const daemon of [['slurmctld', '-i'], ['slurmd']]) {
      const result = await run(daemon[0]!, daemon.slice(1));
      expect(result.code, `${daemon[0]}: ${result.stderr}`).toBe(0);
    }
    // The node registers within seconds (the test's time limit bounds the wait).
    for (;;) {
      const info = await run('sinfo', ['--noheader', '--format=%t']);
      if (info.stdout.trim() === 'idle') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rows = Array.from({ length: ROWS }, (_, index) => `${index},"row\n${index}",${index / 4}`);
    await writeFile(at('job/rows.csv'), `id,text,score\n${rows.join('\n')}\n`);
    for (const name of ['slurm', 'single'])
      await writeFile(
        at(`job/${name}.yaml`),
        `source:\n  plugin: csv\n  options: { path: rows.csv }\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}, shards: ${SHARDS} }\n`,
      );
  }, 120_000);

  afterAll(async () => {
    if (directory === undefined) return;
    if (process.env.TFPIPE_SLURM_KEEP !== undefined) console.warn(`slurm logs kept in ${directory}/log`);
    for (const name of ['slurmd', 'slurmctld', 'munged']) await stopDaemon(join(directory, `${name}.pid`));
    if (process.env.TFPIPE_SLURM_KEEP === undefined) await rm(directory, { recursive: true, force: true });
  }, 60_000);

  it('runs the array script per task and the afterany finalize: the same shards as one process', async () => {
    const job = join(directory, 'job');
    const plan = join(job, 'plan.json');
    const planned = await run('tfpipe', ['plan', 'slurm.yaml', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    // The array's size is the plan's on the command line (it overrides the script's #SBATCH --array).
    const work = await run('sbatch', [
      '--parsable',
      `--array=0-${SHARDS - 1}`,
      join(EXAMPLES, 'tfpipe.sbatch'),
      plan,
    ]);
    expect(work.code, work.stderr).toBe(0);
    const workId = work.stdout.trim().split(';')[0]!;
    const finalize = await run('sbatch', [
      '--wait',
      `--dependency=afterany:${workId}`,
      join(EXAMPLES, 'tfpipe-finalize.sbatch'),
      plan,
    ]);
    const logs = (await readdir(job)).filter((name) => name.startsWith('slurm-'));
    expect(finalize.code, `${finalize.stderr}\n${logs.join(', ')}`).toBe(0);
    // One output file per array task and one of the finalize job.
    expect(logs).toHaveLength(SHARDS + 1);
    const texts = await Promise.all(logs.map((name) => readFile(join(job, name), 'utf8')));
    expect(texts.join('\n')).toContain(`finalized ${ROWS} records in ${SHARDS} shard(s)`);
    const single = await run('tfpipe', ['run', 'single.yaml', '--workers', '1', '--quiet']);
    expect(single.code, single.stderr).toBe(0);
    await expectPlannedOutput(join(job, 'slurm'), join(job, 'single'), SHARDS, ROWS);
  }, 180_000);
});
