import { describe, expect, it } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { expandGlob } from './expand-glob.js';
import type { ListingFileSystem } from './list-directory.js';
import { memoryFileSystem } from './__fixtures__/memory-file-system.js';

const tree = {
  'a.csv': '',
  'b.csv': '',
  '.hidden.csv': '',
  'notes.txt': '',
  data: { 'part-0.parquet': '', 'part-1.parquet': '', _SUCCESS: '', nested: { 'c.csv': '' } },
  link: { symlinkTo: 'data' },
};

describe('expandGlob', () => {
  const fileSystem = memoryFileSystem(tree);
  const expand = (pattern: string, ignore?: (name: string) => boolean): Promise<string[]> =>
    expandGlob(pattern, { fileSystem, stage: 'test', ...(ignore === undefined ? {} : { ignore }) });

  it('expands wildcards, braces and ** to sorted files', async () => {
    expect(await expand('*.csv')).toEqual(['a.csv', 'b.csv']);
    expect(await expand('./*.csv')).toEqual(['./a.csv', './b.csv']);
    expect(await expand('{b,a}.csv')).toEqual(['a.csv', 'b.csv']);
    expect(await expand('**/*.csv')).toEqual(['a.csv', 'b.csv', 'data/nested/c.csv']);
    expect(await expand('data/{part-0,part-1}.parquet')).toEqual([
      'data/part-0.parquet',
      'data/part-1.parquet',
    ]);
    expect(await expand('/root/data/*')).toEqual([]);
  });

  it('follows a symlinked directory named by a segment, never through **', async () => {
    expect(await expand('link/*.parquet')).toEqual(['link/part-0.parquet', 'link/part-1.parquet']);
    expect(await expand('**/part-0.parquet')).toEqual(['data/part-0.parquet']);
  });

  it('lets the caller ignore side files', async () => {
    expect(await expand('data/*', (name) => name.startsWith('_'))).toEqual([
      'data/part-0.parquet',
      'data/part-1.parquet',
    ]);
  });

  it('fails loudly on a matching name that is not UTF-8, ignores one that does not match', async () => {
    const bytes = memoryFileSystem(
      { 'a.csv': '', [String.fromCharCode(0xff) + '.csv']: '', 'b.txt': '' },
      true,
    );
    const run = expandGlob('*.csv', { fileSystem: bytes, stage: 'csvSource' });
    await expect(run).rejects.toThrow(
      'cannot read a file whose name is not valid UTF-8 in \\xFF.csv: rename it to UTF-8',
    );
    await expect(run).rejects.toSatisfy((error) => TfpipeError.is(error) && error.code === 'IO');
    expect(await expandGlob('*.txt', { fileSystem: bytes, stage: 'csvSource' })).toEqual(['b.txt']);
  });

  it('reports a directory it cannot list as IO, not as no match', async () => {
    const denied: ListingFileSystem = {
      readdir: () =>
        Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })),
      stat: () => Promise.reject(new Error('no')),
    };
    await expect(expandGlob('locked/*.csv', { fileSystem: denied, stage: 'csvSource' })).rejects.toThrow(
      'cannot list the directory in locked: EACCES: permission denied',
    );
  });
});
