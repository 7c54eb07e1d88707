import { randomBytes } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The marker in every temporary file name: `.NAME.tfpipe-tmp-<pid>-<random>`. */
export const TEMPORARY_MARKER = '.tfpipe-tmp-';

/** Temporaries this process is writing now (a second sink in the same process must not delete them). */
const activeTemporaries = new Set<string>();

/** `PREFIX-00003-of-00008SUFFIX`: Beam/TFX shard names, five digits or more. */
export function shardName(prefix: string, index: number, count: number, suffix: string): string {
  const width = Math.max(5, String(count).length);
  return `${prefix}-${String(index).padStart(width, '0')}-of-${String(count).padStart(width, '0')}${suffix}`;
}

/** A fresh temporary path for `finalBase` in `directory`, registered as active until released. */
export function temporaryPath(directory: string, finalBase: string): string {
  const name = `.${finalBase}${TEMPORARY_MARKER}${process.pid}-${randomBytes(6).toString('hex')}`;
  const path = join(directory, name);
  activeTemporaries.add(path);
  return path;
}

/** Forgets a temporary (renamed or deleted). */
export function releaseTemporary(path: string): void {
  activeTemporaries.delete(path);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches every output name of a sharded run with `prefix`: shards, their indexes, the manifest. */
export function shardPattern(prefix: string): RegExp {
  return new RegExp(`^${escapeRegExp(prefix)}(-\\d{5,}-of-\\d{5,}.*|\\.manifest\\.json)$`);
}

/** Existing outputs in `directory` matching `pattern`, sorted. */
export async function existingOutputs(directory: string, pattern: RegExp): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return [];
  }
  return entries.filter((entry) => pattern.test(entry)).sort();
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Deletes temporaries a crashed run left for these outputs (`.<stem>….tfpipe-tmp-<pid>-<hex>`): those
 * whose process is gone, or that belong to this process but no live sink. Returns the names removed.
 */
export async function removeStaleTemporaries(directory: string, stem: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return [];
  }
  const pattern = new RegExp(`^\\.${escapeRegExp(stem)}.*${escapeRegExp(TEMPORARY_MARKER)}(\\d+)-[0-9a-f]+$`);
  const removed: string[] = [];
  for (const entry of entries) {
    const match = pattern.exec(entry);
    if (match === null) continue;
    const path = join(directory, entry);
    const pid = Number(match[1]);
    if (activeTemporaries.has(path) || (pid !== process.pid && processAlive(pid))) continue;
    try {
      await unlink(path);
      removed.push(entry);
    } catch {
      // Another process removed it first.
    }
  }
  return removed;
}
