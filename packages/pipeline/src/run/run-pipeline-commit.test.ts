import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plugin as tfrecordPlugin } from '@tfpipe/sink-tfrecord';
import { plugin as csvPlugin } from '@tfpipe/source-csv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { peopleCsv } from '../../../../test-support/people-csv.js';
import { definePipelineConfig } from '../config/pipeline-config.js';
import type * as ReaderFiles from './reader-files.js';
import { runPipelineConfig } from './run-pipeline-config.js';

// The side-file step fails when a test says so (as writing reader_spec.py for 130k features did).
const failing = vi.hoisted(() => ({ now: false }));
vi.mock('./reader-files.js', async (importOriginal) => {
  const original = await importOriginal<typeof ReaderFiles>();
  return {
    ...original,
    writeReaderFiles: async (...args: Parameters<typeof original.writeReaderFiles>) => {
      const written = await original.writeReaderFiles(...args);
      if (failing.now) throw new Error('injected failure writing reader files');
      return written;
    },
  };
});

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-commit-'));
  await writeFile(join(directory, 'people.csv'), peopleCsv(300));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const config = (out: string, split: boolean, shards = 2) =>
  definePipelineConfig({
    source: { plugin: csvPlugin, options: { path: 'people.csv' } },
    ...(split ? { split: { key: 'id', ratios: { train: 0.5, test: 0.5 } } } : {}),
    sink: { plugin: tfrecordPlugin, options: { directory: out, shards, manifest: true } },
  });

async function snapshot(out: string): Promise<Record<string, string>> {
  const names = (await readdir(out)).sort();
  const entries = await Promise.all(
    names.map(async (name): Promise<[string, string]> => [name, await readFile(join(out, name), 'hex')]),
  );
  return Object.fromEntries(entries);
}

describe('a run puts its output in place only when all of it is written', () => {
  for (const split of [false, true]) {
    it(`a failure writing side files leaves no final-named file and the old output whole (${split ? 'split' : 'no split'})`, async () => {
      const out = `out-${String(split)}`;
      failing.now = false;
      await runPipelineConfig(config(out, split), { cwd: directory });
      const before = await snapshot(join(directory, out));
      expect(Object.keys(before)).toContain('reader_spec.py');

      failing.now = true;
      await expect(
        runPipelineConfig(config(out, split, 3), { cwd: directory, overwrite: true }),
      ).rejects.toThrow('injected failure writing reader files');
      // Same files, same bytes: no new shard, no half-replaced set, no temporary, no staging directory.
      expect(await snapshot(join(directory, out))).toEqual(before);

      failing.now = true;
      const fresh = `fresh-${String(split)}`;
      await expect(runPipelineConfig(config(fresh, split), { cwd: directory })).rejects.toThrow('injected');
      expect(await readdir(join(directory, fresh)).catch(() => [])).toEqual([]);
    });
  }
});
