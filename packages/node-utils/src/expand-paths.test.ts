import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rejectionOf } from '@tfpipe/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPaths } from './expand-paths.js';

const linux = process.platform === 'linux';

describe('expandPaths', () => {
  let directory: string;
  const expand = (paths: string | string[], options = {}): Promise<string[]> =>
    expandPaths(paths, { stage: 'test', ...options });
  const names = (files: string[]): string[] => files.map((file) => file.slice(directory.length + 1));

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'tfpipe-expand-paths-'));
    for (const name of ['a.csv', 'b.csv', 'c.parquet', '.hidden.csv', '_SUCCESS', 'odd [1] name.csv']) {
      await writeFile(join(directory, name), 'x');
    }
    await mkdir(join(directory, 'deep/er'), { recursive: true });
    await writeFile(join(directory, 'deep/d.csv'), 'x');
    await writeFile(join(directory, 'deep/er/e.csv'), 'x');
    await writeFile(join(directory, 'deep/er/.f.csv'), 'x');
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('expands braces, nested too, the same for every extension', async () => {
    expect(names(await expand(`${directory}/{a,b}.csv`))).toEqual(['a.csv', 'b.csv']);
    expect(names(await expand(`${directory}/{a.csv,{c.parquet,none}}`))).toEqual(['a.csv', 'c.parquet']);
  });

  it('** descends into every folder, * stays in one', async () => {
    expect(names(await expand(`${directory}/**/*.csv`))).toEqual([
      'a.csv',
      'b.csv',
      'deep/d.csv',
      'deep/er/e.csv',
      'odd [1] name.csv',
    ]);
    expect(names(await expand(`${directory}/*/*.csv`))).toEqual(['deep/d.csv']);
  });

  it('reads character classes, ranges and negations', async () => {
    expect(names(await expand(`${directory}/[ab].csv`))).toEqual(['a.csv', 'b.csv']);
    expect(names(await expand(`${directory}/[!a].csv`))).toEqual(['b.csv']);
    expect(names(await expand(`${directory}/[a-c].*`))).toEqual(['a.csv', 'b.csv', 'c.parquet']);
  });

  it('leaves hidden files to a pattern that names the dot, and ignored names to a literal path', async () => {
    expect(names(await expand(`${directory}/*.csv`))).not.toContain('.hidden.csv');
    expect(names(await expand(`${directory}/.*.csv`))).toEqual(['.hidden.csv']);
    const ignore = (name: string): boolean => name.startsWith('_');
    expect(names(await expand(`${directory}/*`, { ignore }))).not.toContain('_SUCCESS');
    expect(names(await expand(`${directory}/_SUCCESS`, { ignore }))).toEqual(['_SUCCESS']);
  });

  it('takes an existing file literally even when its name reads as a glob', async () => {
    expect(names(await expand(`${directory}/odd [1] name.csv`))).toEqual(['odd [1] name.csv']);
  });

  it('keeps the order of the paths given, sorting only within a glob', async () => {
    expect(names(await expand([`${directory}/b.csv`, `${directory}/{b,a}.csv`]))).toEqual([
      'b.csv',
      'a.csv',
      'b.csv',
    ]);
  });

  it('is INPUT_NOT_FOUND for a glob that matches nothing and for a missing file, naming them', async () => {
    const glob = await rejectionOf(expand(`${directory}/*.json`));
    expect(glob.code).toBe('INPUT_NOT_FOUND');
    expect(glob.message).toBe(`no file matches ${JSON.stringify(`${directory}/*.json`)}`);
    const file = await rejectionOf(expand(`${directory}/missing.csv`));
    expect(file.code).toBe('INPUT_NOT_FOUND');
    expect(file.position.file).toBe(`${directory}/missing.csv`);
  });

  it('refuses a directory as INPUT_NOT_FILE, or walks it sorted, skipping hidden and ignored names', async () => {
    const refused = await rejectionOf(expand(`${directory}/deep`));
    expect(refused.code).toBe('INPUT_NOT_FILE');
    expect(refused.message).toBe(`input is a directory in ${directory}/deep`);
    expect(names(await expand(`${directory}/deep`, { directories: 'walk' }))).toEqual([
      'deep/d.csv',
      'deep/er/e.csv',
    ]);
    const ignore = (name: string): boolean => name === 'er';
    expect(names(await expand(directory, { directories: 'walk', ignore }))).toEqual([
      '_SUCCESS',
      'a.csv',
      'b.csv',
      'c.parquet',
      'deep/d.csv',
      'odd [1] name.csv',
    ]);
  });

  it('is INPUT_NOT_FOUND for a directory with no file to walk', async () => {
    await mkdir(join(directory, 'empty'));
    const error = await rejectionOf(expand(`${directory}/empty`, { directories: 'walk' }));
    expect(error.code).toBe('INPUT_NOT_FOUND');
    expect(error.message).toBe(`no file in the directory in ${directory}/empty`);
  });

  it('reads relative paths, globs and directories against cwd, naming the files as given', async () => {
    const cwd = { cwd: directory };
    expect(await expand(['a.csv', '{b,c}.*', 'deep/**/*.csv'], cwd)).toEqual([
      'a.csv',
      'b.csv',
      'c.parquet',
      'deep/d.csv',
      'deep/er/e.csv',
    ]);
    expect(await expand('deep', { ...cwd, directories: 'walk' })).toEqual(['deep/d.csv', 'deep/er/e.csv']);
    expect(await expand(`${directory}/a.csv`, { cwd: '/' })).toEqual([`${directory}/a.csv`]);
    const missing = await rejectionOf(expand('missing.csv', cwd));
    expect(missing.code).toBe('INPUT_NOT_FOUND');
    expect(missing.position.file).toBe('missing.csv');
  });

  it.skipIf(!linux)('refuses a FIFO named literally without opening it', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(directory, 'pipe.csv')]);
    const error = await rejectionOf(expand(`${directory}/pipe.csv`));
    expect(error.code).toBe('INPUT_NOT_FILE');
  });

  it('follows a symbolic link to a file', async () => {
    await symlink(join(directory, 'a.csv'), join(directory, 'link.csv'));
    expect(names(await expand(`${directory}/link.csv`))).toEqual(['link.csv']);
    expect(names(await expand(`${directory}/l*.csv`))).toEqual(['link.csv']);
  });
});
