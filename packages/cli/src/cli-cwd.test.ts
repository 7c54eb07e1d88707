import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, tfpipe } from './__fixtures__/run-cli.js';
import { viewFiles } from './view/view-files.js';

// The process's own directory is the package's: every relative name below exists only under `cwd`.
let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'tfpipe-cli-cwd-'));
  await mkdir(join(cwd, 'data'));
  for (const name of ['pwnall_singles.tfrecords', 'tfx_penguin_train.tfrecord.gz']) {
    await copyFile(join(CORPUS, name), join(cwd, 'data', name));
  }
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('read commands expand their FILE globs against io.cwd, not the process directory', () => {
  it('count', async () => {
    const result = await tfpipe(['count', 'data/{pwnall_singles,tfx_penguin_train}.*'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('237\ttotal');
  });

  it('inspect', async () => {
    const result = await tfpipe(['inspect', '--limit', '1', 'data/pwnall*'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^record 0 \(Example\)/);
  });

  it('verify, and its --repair output lands under cwd', async () => {
    const verified = await tfpipe(['verify', 'data/*'], { cwd });
    expect(verified.stderr).toBe('');
    expect(verified.stdout.match(/^ok\t/gm)).toHaveLength(2);
    const repaired = await tfpipe(['verify', '--repair', 'fixed.tfrecord', 'data/pwnall*'], { cwd });
    expect(repaired.code).toBe(0);
    expect((await stat(join(cwd, 'fixed.tfrecord'))).isFile()).toBe(true);
  });

  it('schema', async () => {
    const result = await tfpipe(['schema', '--format', 'json', 'data/tfx_penguin_*'], { cwd });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toBeTypeOf('object');
  });

  it('view finds the files of a glob', async () => {
    const files = await viewFiles(['data/*.tfrecords'], cwd);
    expect(files.map((file) => [file.name, file.path])).toEqual([
      ['data/pwnall_singles.tfrecords', join(cwd, 'data/pwnall_singles.tfrecords')],
    ]);
  });
});
