import { readdir, readFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';

/** Descriptors kept free for everything else a run opens (inputs, indexes, the manifest, stdio). */
const SPARE_DESCRIPTORS = 32;

/** This process's soft limit on open files (`ulimit -n`), where the platform tells (Linux). */
export async function openFileLimit(): Promise<number | undefined> {
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => undefined);
  const line = limits?.split('\n').find((text) => text.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}

/** Descriptors open in this process now, where the platform tells (Linux). */
async function openFileCount(): Promise<number> {
  return (await readdir('/proc/self/fd').catch(() => [] as string[])).length;
}

/**
 * Refuses, before any file is created, to keep `files` files open at once (fixed shards stay open
 * for the whole run) when the open-file limit leaves no room for them: the run would otherwise
 * fail with EMFILE part way through.
 * @throws TfpipeError `INVALID_OPTION` naming the limit and the fix.
 */
export async function checkOpenFiles(files: number, stage: string): Promise<void> {
  const limit = await openFileLimit();
  if (limit === undefined || !Number.isFinite(limit)) return;
  const free = limit - (await openFileCount()) - SPARE_DESCRIPTORS;
  if (files <= free) return;
  const needed = files + limit - free;
  throw new TfpipeError(
    'INVALID_OPTION',
    `shards: ${files} keeps ${files} files open at once, but the open-file limit (ulimit -n) is ${limit}`,
    {
      stage,
      fatal: true,
      reason: `raise it (ulimit -n ${Math.ceil(needed / 1024) * 1024}) or write fewer shards at once (maxRecords or maxBytes keep one open)`,
    },
  );
}
