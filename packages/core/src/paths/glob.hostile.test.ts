import { describe, expect, it } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { expandGlob } from './expand-glob.js';
import { memoryFileSystem, type MemoryTree } from './__fixtures__/memory-file-system.js';
import { compileGlob, matchesGlob } from './glob-pattern.js';

// Patterns that hang or blow up regex- and expansion-based globs. Each finishes in milliseconds; the 20 s bound
// is a hang guard that a loaded CI machine cannot trip (the old matcher ran past 60 s).
describe('hostile globs', () => {
  it('*a*a*a*a*a*a*a*a*a*a*a*a*b against long names of a: no backtracking (was a hang)', () => {
    const glob = compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    const started = performance.now();
    expect(matchesGlob(glob, 'a'.repeat(255))).toBe(false);
    expect(matchesGlob(glob, 'a'.repeat(4000))).toBe(false);
    expect(matchesGlob(glob, `${'a'.repeat(4000)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('{a,b} x24 is refused before expanding (was 1.4 GB)', () => {
    const started = performance.now();
    let error: unknown;
    try {
      compileGlob('{a,b}'.repeat(24));
    } catch (caught) {
      error = caught;
    }
    expect(TfpipeError.is(error) && error.code).toBe('INVALID_OPTION');
    expect((error as Error).message).toMatch(/^glob "\{a,b\}\{a,b\}.*" expands to more than 1024 patterns/);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('nested braces multiplying past the cap are refused too', () => {
    expect(() => compileGlob(`{${'{a,b,c,d}'.repeat(6)},x}`)).toThrow(/more than 1024 patterns/);
  });

  it('[z-a] is INVALID_OPTION, not a raw regular-expression error', () => {
    expect(() => compileGlob('x[z-a].tfrecord')).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: expect.stringContaining('"x[z-a].tfrecord"'),
      }),
    );
  });

  it('** twenty-one times over a 40-deep tree lists each path once (41 directories, 41 missing `a`)', async () => {
    let tree: MemoryTree = { 'end.csv': '' };
    for (let depth = 0; depth < 40; depth++) tree = { a: tree, 'x.csv': '' };
    let listed = 0;
    const fileSystem = memoryFileSystem(tree);
    const counting = {
      ...fileSystem,
      readdir: (...args: Parameters<typeof fileSystem.readdir>) => {
        listed++;
        return fileSystem.readdir(...args);
      },
    };
    const started = performance.now();
    const files = await expandGlob(`${'**/a/'.repeat(20)}**/end.csv`, {
      fileSystem: counting,
      stage: 'test',
    });
    expect(files).toEqual([`${'a/'.repeat(40)}end.csv`]);
    expect(listed).toBeLessThanOrEqual(82);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
