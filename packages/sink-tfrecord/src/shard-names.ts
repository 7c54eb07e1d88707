import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The marker in every temporary file name: `.NAME.tfpipe-tmp-<pid>-<host><random>`, `<host>` being 8
 * hex digits of this host's name hashed and `<random>` 12 hex digits.
 */
export const TEMPORARY_MARKER = '.tfpipe-tmp-';

/**
 * This host in temporary names: a PID says nothing about a writer on another host sharing the
 * directory (NFS), so only temporaries of this host are ever judged by their PID.
 */
export const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** Temporaries this process is writing now (a second sink in the same process must not delete them). */
const activeTemporaries = new Set<string>();

/** `PREFIX-00003-of-00008SUFFIX`: Beam/TFX shard names, five digits or more. */
export function shardName(prefix: string, index: number, count: number, suffix: string): string {
  const width = Math.max(5, String(count).length);
  return `${prefix}-${String(index).padStart(width, '0')}-of-${String(count).padStart(width, '0')}${suffix}`;
}

/** A fresh temporary path for `finalBase` in `directory`, registered as active until released. */
export function temporaryPath(directory: string, finalBase: string): string {
  const name = `.${finalBase}${TEMPORARY_MARKER}${process.pid}-${HOST_TAG}${randomBytes(6).toString('hex')}`;
  const path = join(directory, name);
  activeTemporaries.add(path);
  return path;
}

/** Forgets a temporary (renamed or deleted). */
export function releaseTemporary(path: string): void {
  activeTemporaries.delete(path);
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

/** What {@link removeStaleTemporaries} did. */
export interface StaleTemporaries {
  /** Names deleted: this host's, their process gone. */
  readonly removed: readonly string[];
  /** Names left alone: of another host, or of a tfpipe that did not name the host (its process cannot be checked). */
  readonly foreign: readonly string[];
}

/**
 * Deletes temporaries (files, or staging directories) a crashed run on this host left for these
 * outputs (`.<stem>….tfpipe-tmp-<pid>-<host><random>`): those whose process is gone, or that belong to this
 * process but no live sink. Temporaries of another host, or without a host, are never deleted: a
 * live writer there may own them.
 */
export async function removeStaleTemporaries(directory: string, stem: string): Promise<StaleTemporaries> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return { removed: [], foreign: [] };
  }
  const pattern = new RegExp(
    `^\\.${escapeRegExp(stem)}.*${escapeRegExp(TEMPORARY_MARKER)}(\\d+)-([0-9a-f]+)$`,
  );
  const removed: string[] = [];
  const foreign: string[] = [];
  for (const entry of entries.sort()) {
    const match = pattern.exec(entry);
    if (match === null) continue;
    const path = join(directory, entry);
    const pid = Number(match[1]);
    const tag = match[2]!;
    if (tag.length !== 20 || !tag.startsWith(HOST_TAG)) {
      foreign.push(entry);
      continue;
    }
    if (activeTemporaries.has(path) || (pid !== process.pid && processAlive(pid))) continue;
    // A staging directory (the CLI's side files) goes with its content.
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
    removed.push(entry);
  }
  return { removed, foreign };
}
