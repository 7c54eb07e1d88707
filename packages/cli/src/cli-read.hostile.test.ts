// Hostile inputs to the reading commands: each case must end within seconds with a one-line error.
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytes, encodeExample, example, int64 } from '@tfpipe/core';
import { frameRecord } from '@tfpipe/sink-tfrecord/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tfpipe } from './__fixtures__/run-cli.js';

const linux = process.platform === 'linux';
let directory: string;
let fifo: string;
let good: string;
let many: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-read-hostile-'));
  good = join(directory, 'good.tfrecord');
  await writeFile(good, frameRecord(encodeExample(example({ id: int64(1) }))));
  many = join(directory, 'many.tfrecord');
  const frames = Array.from({ length: 20_000 }, (_, index) =>
    frameRecord(encodeExample(example({ id: int64(index) }))),
  );
  await writeFile(many, Buffer.concat(frames));
  fifo = join(directory, 'pipe.tfrecord');
  if (linux) execFileSync('mkfifo', [fifo]);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** The command ends with one stderr line carrying `code` and naming `path`, exit 1. */
function expectOneLineError(result: { code: number; stderr: string }, code: string, path: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain(`[${code}]`);
  expect(result.stderr).toContain(path);
}

describe.skipIf(!linux)('FIFOs and devices where a file is read (Linux: mkfifo, /dev/zero)', () => {
  for (const command of ['count', 'verify', 'inspect', 'schema']) {
    it(`${command} on a FIFO is INPUT_NOT_FILE at once, never a blocked open`, async () => {
      const started = Date.now();
      expectOneLineError(await tfpipe([command, fifo]), 'INPUT_NOT_FILE', fifo);
      expect(Date.now() - started).toBeLessThan(10_000);
    }, 15_000);
  }

  it('run with a JSON Lines source on a FIFO is INPUT_NOT_FILE at once', async () => {
    const jsonl = join(directory, 'pipe.jsonl');
    execFileSync('mkfifo', [jsonl]);
    const config = join(directory, 'run.json');
    await writeFile(
      config,
      JSON.stringify({
        source: { plugin: 'jsonl', options: { path: jsonl } },
        sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: join(directory, 'run-out.tfrecord') } },
      }),
    );
    expectOneLineError(await tfpipe(['run', config]), 'INPUT_NOT_FILE', jsonl);
  }, 15_000);

  it('a FIFO where the manifest is expected is INPUT_NOT_FILE naming the manifest path', async () => {
    const folder = join(directory, 'manifest-fifo');
    await mkdir(folder);
    const file = join(folder, 'data.tfrecord');
    await writeFile(file, frameRecord(encodeExample(example({ id: int64(1) }))));
    execFileSync('mkfifo', [`${file}.manifest.json`]);
    for (const command of ['inspect', 'schema']) {
      expectOneLineError(await tfpipe([command, file]), 'INPUT_NOT_FILE', `${file}.manifest.json`);
    }
  }, 15_000);

  it('a link to /dev/zero where the manifest is expected is INPUT_NOT_FILE, nothing read', async () => {
    const folder = join(directory, 'manifest-zero');
    await mkdir(folder);
    const file = join(folder, 'data.tfrecord');
    await writeFile(file, frameRecord(encodeExample(example({ id: int64(1) }))));
    await symlink('/dev/zero', `${file}.manifest.json`);
    expectOneLineError(await tfpipe(['inspect', file]), 'INPUT_NOT_FILE', `${file}.manifest.json`);
  }, 15_000);

  it('a manifest over 64 MiB is refused before it is read (CONFIG_PARSE, exit 2)', async () => {
    const folder = join(directory, 'manifest-huge');
    await mkdir(folder);
    const file = join(folder, 'data.tfrecord');
    await writeFile(file, frameRecord(encodeExample(example({ id: int64(1) }))));
    // A sparse file: 65 MiB long, no disk used.
    execFileSync('truncate', ['-s', '65M', `${file}.manifest.json`]);
    const result = await tfpipe(['inspect', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/manifest too large .*: 68157440 bytes, more than the 67108864/);
  }, 15_000);
});

/** Runs `tfpipe ...args`, reads stdout up to its first newline, then closes the pipe as `head -1` does. */
function firstLineThenClose(
  args: readonly string[],
): Promise<{ first: string; code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (stdout.includes('\n')) child.stdout.destroy();
    });
    child.on('close', (code, signal) => resolve({ first: stdout.split('\n')[0]!, code, signal, stderr }));
  });
}

describe('stdout closed by its reader (tfpipe … | head -1)', () => {
  for (const args of [
    ['inspect', '--json'],
    ['inspect', '--limit', '100000'],
  ]) {
    it(`${args.join(' ')} exits quietly (141, nothing on stderr) instead of an EPIPE stack trace`, async () => {
      const result = await firstLineThenClose([...args, many]);
      expect(result.first.length).toBeGreaterThan(0);
      expect(result.stderr).toBe('');
      expect(result.signal).toBeNull();
      expect(result.code).toBe(141);
    }, 15_000);
  }

  it('count over many files exits quietly once its reader is gone', async () => {
    const result = await firstLineThenClose(['count', ...Array.from({ length: 3000 }, () => good)]);
    expect(result.first).toBe(`1\t${good}`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(141);
  }, 15_000);
});

describe('terminal control characters in names and values are printed escaped', () => {
  const hostileName = 'evil\u001b[2J\u0007\u009b31m\u202ename';
  const escapedName = 'evil\\x1b[2J\\x07\\x9b31m\\u202ename';

  /** No byte of stdout or stderr is a control character other than tab and newline. */
  function expectNoRawControls(text: string): void {
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  }

  it('in feature names, text values and file names of inspect, schema, count and verify text output', async () => {
    const file = join(directory, 'bad\u001b]0;title\u0007name.tfrecord');
    const record = example({
      [hostileName]: int64(1),
      label: bytes(new TextEncoder().encode('red\u009b31m')),
    });
    await writeFile(file, frameRecord(encodeExample(record)));
    const inspect = await tfpipe(['inspect', file]);
    expect(inspect.stdout).toContain(escapedName);
    expect(inspect.stdout).toContain('"red\\x9b31m"');
    const schema = await tfpipe(['schema', file]);
    expect(schema.stdout).toContain(escapedName);
    const count = await tfpipe(['count', file]);
    expect(count.stdout).toBe(`1\t${join(directory, 'bad\\x1b]0;title\\x07name.tfrecord')}\n`);
    const verify = await tfpipe(['verify', file]);
    for (const output of [inspect, schema, count, verify]) {
      expect(output.code).toBe(0);
      expectNoRawControls(output.stdout + output.stderr);
    }
  }, 20_000);

  it('in error messages (a missing file whose name sets the window title)', async () => {
    const result = await tfpipe(['count', join(directory, 'gone\u001b]0;pwned\u0007.tfrecord')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('gone\\x1b]0;pwned\\x07.tfrecord');
    expectNoRawControls(result.stderr);
  }, 15_000);
});
