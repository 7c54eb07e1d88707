import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError, type ShardSummary } from '@tfpipe/core';

const SHARD_FILE = /-\d{5,}-of-\d{5,}|\.(tfrecords?|tfrec)(\.gz|\.zz)?$/i;

async function shardFiles(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  return names
    .filter((name) => !name.startsWith('.') && SHARD_FILE.test(name) && !name.endsWith('.idx'))
    .sort();
}

/**
 * Refuses, before anything is written, an output directory that already holds shards, unless
 * `overwrite`: a new run never mixes its shards with an old run's.
 *
 * @throws TfpipeError `OUTPUT_EXISTS` naming the directory and the first files.
 */
export async function checkOutputDirectory(directory: string, overwrite: boolean): Promise<void> {
  if (overwrite) return;
  const existing = await shardFiles(directory);
  if (existing.length === 0) return;
  const shown = existing.slice(0, 3).join(', ') + (existing.length > 3 ? ', …' : '');
  throw new TfpipeError(
    'OUTPUT_EXISTS',
    `the output directory already holds ${existing.length} shard file(s) (${shown})`,
    {
      stage: 'run',
      fatal: true,
      position: { file: directory },
      reason: 'pass --overwrite to replace them',
    },
  );
}

/**
 * After a successful `--overwrite` run: removes the shard files (and their `.idx` and manifests)
 * of earlier runs that this run did not replace (another prefix or split, more shards), so the
 * directory holds exactly the new set.
 */
export async function removeStaleShards(
  directory: string,
  written: readonly ShardSummary[],
): Promise<string[]> {
  const kept = new Set(
    written.map((shard) =>
      shard.path.slice(Math.max(shard.path.lastIndexOf('/'), shard.path.lastIndexOf('\\')) + 1),
    ),
  );
  const prefixes = new Set([...kept].map((name) => name.replace(/-\d{5,}-of-\d{5,}.*$/, '')));
  const removed: string[] = [];
  for (const name of await readdir(directory).catch(() => [] as string[])) {
    const base = name.replace(/\.idx$/, '');
    const staleShard = SHARD_FILE.test(base) && !kept.has(base) && !name.startsWith('.');
    const staleManifest =
      name.endsWith('.manifest.json') && !prefixes.has(name.replace(/\.manifest\.json$/, ''));
    if (staleShard || staleManifest) {
      await rm(join(directory, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}
