import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, writeRowsCsv } from './__fixtures__/reliability.js';
import { BIN } from './__fixtures__/run-cli.js';

// Signals and `ulimit -n` as Linux has them; elsewhere these cases say why they did not run.
const linux = process.platform === 'linux';
if (!linux) console.warn('cli-outputs.hostile: SIGTERM and ulimit -n cases run on Linux only; skipped');

let directory: string;
let csv: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-outputs-hostile-'));
  csv = join(directory, 'rows.csv');
  await writeRowsCsv(csv, 400_000);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const isTemporary = (name: string): boolean => name.includes('.tfpipe-tmp-');

/** Runs `tfpipe ...args` under `ulimit -n files`; resolves with its exit code and output. */
function underFileLimit(
  files: number,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `ulimit -n ${files}; exec "$@"`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', script, 'bash', process.execPath, BIN, ...args], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe.runIf(linux)('outputs under hostile conditions (bounded)', () => {
  it('SIGTERM mid-run leaves no temporary and no final-named shard', { timeout: 30_000 }, async () => {
    const out = join(directory, 'terminated');
    const run = startCli(['convert', csv, out, '--shards', '4']);
    const deadline = Date.now() + 15_000;
    while (!(await readdir(out).catch(() => [] as string[])).some(isTemporary)) {
      if (Date.now() > deadline) throw new Error('the run wrote no temporary in 15 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.child.kill('SIGTERM');
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr.trim().split('\n')).toHaveLength(1);
    expect(exit.stderr).toContain('[ABORTED]');
    expect(await readdir(out)).toEqual([]);
  });

  it(
    '--shards beyond ulimit -n: a clear error naming the fix, before any file',
    { timeout: 20_000 },
    async () => {
      const out = join(directory, 'many-shards');
      for (const shards of ['1024', '100000']) {
        const result = await underFileLimit(256, ['convert', csv, out, '--shards', shards]);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          new RegExp(
            `^tfpipe convert: --shards ${shards} keeps ${shards} files open at once, but the open-file limit \\(ulimit -n\\) is 256: raise it \\(ulimit -n \\d+\\) or write fewer shards at once \\(--max-records or --max-bytes keep one open\\) \\[INVALID_OPTION\\]\\n$`,
          ),
        );
        await expect(readdir(out)).rejects.toThrow();
      }
      const few = join(directory, 'few.csv');
      await writeRowsCsv(few, 2_000);
      const fits = await underFileLimit(256, ['convert', few, out, '--shards', '150', '--quiet']);
      expect(fits.stderr).toBe('');
      expect((await readdir(out)).length).toBe(151);
    },
  );

  it(
    'a full shuffle with more spill runs than ulimit -n allows open files',
    { timeout: 60_000 },
    async () => {
      const small = join(directory, 'small.csv');
      // ~50 records of ~80 bytes fill 4 KiB: ~400 spill runs, more than 256 files could hold open.
      await writeRowsCsv(small, 20_000);
      const pipeline = join(directory, 'shuffle.json');
      await writeFile(
        pipeline,
        JSON.stringify({
          source: { plugin: 'csv', options: { path: small } },
          shuffle: { full: true, memory: '4K', seed: 1 },
          sink: { plugin: 'tfrecord', options: { directory: join(directory, 'shuffled') } },
        }),
      );
      const result = await underFileLimit(256, ['run', pipeline, '--json']);
      expect(result.stderr).toBe('');
      const summary = JSON.parse(result.stdout) as { recordsWritten: number };
      expect(summary.recordsWritten).toBe(20_000);
    },
  );
});
