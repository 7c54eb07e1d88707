// `tfpipe view` without `--no-open` hands the URL it prints to the platform's opener (`xdg-open` on
// Linux), and says so on stderr when there is none. The opener here is a script first on PATH that
// writes down what it was given, in place of the desktop's.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeExample, example, int64 } from '@tfpipe/core';
import { frameRecord } from '@tfpipe/sink-tfrecord/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './__fixtures__/run-cli.js';

let directory: string;
/** Every server started, stopped in afterAll too: a test that times out never reaches its own `finally`. */
const started: ReturnType<typeof spawn>[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-view-open-'));
  await writeFile(join(directory, 'a.tfrecord'), frameRecord(encodeExample(example({ id: int64(1) }))));
  await mkdir(join(directory, 'bin'));
  await mkdir(join(directory, 'empty'));
  const opener = join(directory, 'bin', 'xdg-open');
  await writeFile(
    opener,
    `#!/bin/sh\nPATH=/usr/bin:/bin\nprintf '%s' "$1" > '${join(directory, 'opened')}.tmp'\nmv '${join(directory, 'opened')}.tmp' '${join(directory, 'opened')}'\n`,
  );
  await chmod(opener, 0o755);
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(directory, { recursive: true, force: true });
});

/** Runs `tfpipe view a.tfrecord` with `PATH` set to `path` until `until` holds, then interrupts it. */
async function view(path: string, until: (stdout: string, stderr: string) => Promise<boolean>) {
  const child = spawn(process.execPath, [BIN, 'view', 'a.tfrecord'], {
    cwd: directory,
    env: { ...process.env, PATH: path },
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    while (!(await until(stdout, stderr))) {
      if (child.exitCode !== null) throw new Error(`tfpipe view exited with ${child.exitCode}: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  return { stdout, stderr };
}

describe.runIf(process.platform === 'linux')('tfpipe view opens the browser unless --no-open', () => {
  it('hands the printed URL, token included, to xdg-open', async () => {
    const opened = join(directory, 'opened');
    let url = '';
    const { stderr } = await view(join(directory, 'bin'), async (stdout) => {
      const printed = /http:\S+/.exec(stdout);
      if (printed === null) return false;
      url = printed[0];
      return readFile(opened, 'utf8').then(
        () => true,
        () => false,
      );
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{22}\/$/);
    expect(await readFile(opened, 'utf8')).toBe(url);
    expect(stderr).toBe('');
  });

  it('without an opener on PATH, says to open the printed URL by hand', async () => {
    const { stdout, stderr } = await view(join(directory, 'empty'), (_out, err) =>
      Promise.resolve(err.includes('\n')),
    );
    expect(stdout).toMatch(/^tfpipe view: 1 file at http:\/\/127\.0\.0\.1:\d+\/[\w-]{22}\/\n$/);
    expect(stderr).toBe('tfpipe view: no browser could be opened; open the URL above\n');
  });
});
