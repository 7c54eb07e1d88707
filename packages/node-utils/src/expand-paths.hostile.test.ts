import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rejectionOf } from '@tfpipe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandPaths as expand } from './expand-paths.js';

const expandPaths = (paths: string, stage: string): Promise<string[]> => expand(paths, { stage });

const linux = process.platform === 'linux';
if (!linux)
  console.warn('expand-paths.hostile: names that are not UTF-8 need Linux, those cases are skipped');

const failure = rejectionOf;

describe('expandPaths on hostile input', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'tfpipe-expand-paths-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('*a*a*a*a*a*a*a*a*a*a*a*a*b beside a 200-character name of a: no match, well inside a hang guard of 20 s (was a hang)', async () => {
    await writeFile(join(directory, `${'a'.repeat(200)}.tfrecord`), '');
    const started = performance.now();
    const error = await failure(expandPaths(`${directory}/*a*a*a*a*a*a*a*a*a*a*a*a*b`, 'count'));
    expect(error.code).toBe('INPUT_NOT_FOUND');
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('{a,b} x24 is INVALID_OPTION at once (was 1.4 GB and more)', async () => {
    const started = performance.now();
    const error = await failure(expandPaths(`${directory}/${'{a,b}'.repeat(24)}`, 'count'));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('expands to more than 1024 patterns');
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('[z-a] is INVALID_OPTION naming the pattern (was a raw regular-expression error)', async () => {
    const error = await failure(expandPaths(`${directory}/x[z-a].tfrecord`, 'count'));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe(`invalid glob "${directory}/x[z-a].tfrecord": range "z-a" is out of order`);
  });

  it.skipIf(!linux)(
    '** refuses a directory whose name is not UTF-8 instead of skipping what it holds',
    async () => {
      const inner = Buffer.concat([Buffer.from(`${directory}/`), Buffer.from([0x78, 0xff])]);
      await mkdir(inner);
      await writeFile(Buffer.concat([inner, Buffer.from('/a.tfrecord')]), 'x');
      const error = await failure(expandPaths(`${directory}/**/*.tfrecord`, 'count'));
      expect(error.code).toBe('IO');
      expect(error.position.file).toBe(`${directory}/x\\xFF`);
    },
  );

  it('a path typed with U+FFFD (a byte Node.js could not decode) says why it is missing', async () => {
    const error = await failure(expandPaths(`${directory}/d\uFFFD.tfrecord`, 'count'));
    expect(error.code).toBe('INPUT_NOT_FOUND');
    expect(error.message).toContain('which Node.js puts for bytes that are not UTF-8');
  });
});
