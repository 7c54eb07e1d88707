import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { DatasetStats, TfpipeError } from '@tfpipe/core';
import { writeError } from '@tfpipe/node-utils';
import type { ScalePlan } from './plan-types.js';

/** One output file of a committed shard. */
export interface MarkedFile {
  /** File name in the output directory. */
  readonly name: string;
  readonly records: number;
  /** Bytes on disk. */
  readonly bytes: number;
  /** Framed bytes before compression. */
  readonly uncompressedBytes: number;
  /** SHA-256 of the file, lowercase hex. */
  readonly sha256: string;
  readonly compression: 'none' | 'gzip' | 'zlib';
  /** The split it belongs to, or the sink's prefix without a split. */
  readonly prefix: string;
}

/** A skipped record's error as JSON (`TfpipeError.toJSON()`): code, message, stage, position. */
export type SkippedRecord = ReturnType<TfpipeError['toJSON']>;

/** A shard's commit marker: written only after every file of the shard is under its final name. */
export interface ShardMarker {
  /** The plan's checksum: a marker of another plan never counts. */
  readonly plan: string;
  readonly index: number;
  readonly files: readonly MarkedFile[];
  /** What the shard's records hold per prefix, merged by finalize into the manifests and reader specs. */
  readonly stats: Readonly<Record<string, DatasetStats>>;
  /**
   * Records the shard dropped under `onError: 'skip'` (source and stages; absent in a marker of an
   * older tfpipe: none counted). @default 0
   */
  readonly skippedRecords?: number;
  /** The first of their errors (at most 100), positions in whole-file terms. @default [] */
  readonly skippedErrors?: readonly SkippedRecord[];
}

/** The hidden directory of a plan's markers inside the output directory. */
export function markerDirectory(plan: ScalePlan): string {
  return join(plan.directory, `.tfpipe-plan-${plan.checksum.slice(0, 12)}`);
}

function markerPath(plan: ScalePlan, index: number): string {
  return join(markerDirectory(plan), `shard-${String(index).padStart(5, '0')}.json`);
}

/** The marker of shard `index`, if committed for this plan and its files are all there at their size. */
export async function readMarker(plan: ScalePlan, index: number): Promise<ShardMarker | undefined> {
  let marker: ShardMarker;
  try {
    marker = JSON.parse(await readFile(markerPath(plan, index), 'utf8')) as ShardMarker;
  } catch {
    return undefined;
  }
  if (marker.plan !== plan.checksum || marker.index !== index) return undefined;
  for (const file of marker.files) {
    const info = await stat(join(plan.directory, file.name)).catch(() => undefined);
    if (info?.size !== file.bytes) return undefined;
  }
  return marker;
}

/** Writes a marker by a rename, so a reader sees none or all of it; two writers write the same one. */
export async function writeMarker(plan: ScalePlan, marker: ShardMarker): Promise<void> {
  const file = markerPath(plan, marker.index);
  const temporary = `${file}.${process.pid}-${Date.now()}.tmp`;
  try {
    await mkdir(markerDirectory(plan), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(marker)}\n`);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw writeError(error, file, 'work', 'writing the commit marker');
  }
}

/** A lease: says that a process is working on an index (for `status`), removed when it ends. */
export interface Lease {
  readonly index: number;
  readonly pid: number;
  readonly host: string;
  /** Milliseconds since the epoch. */
  readonly started: number;
}

const LEASE = /^shard-(\d+)\.lease-/;

function leaseFile(plan: ScalePlan, lease: Lease): string {
  return join(
    markerDirectory(plan),
    `shard-${String(lease.index).padStart(5, '0')}.lease-${lease.host}-${lease.pid}`,
  );
}

/** True when process `pid` of this host is alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Takes a lease on `index` (dropping those of this host's dead workers); resolves to a function that drops it. */
export async function takeLease(plan: ScalePlan, index: number): Promise<() => Promise<void>> {
  const lease: Lease = { index, pid: process.pid, host: hostname(), started: Date.now() };
  for (const stale of await readLeases(plan)) {
    if (stale.index === index && stale.host === lease.host && !processAlive(stale.pid)) {
      await rm(leaseFile(plan, stale), { force: true });
    }
  }
  const file = leaseFile(plan, lease);
  await mkdir(markerDirectory(plan), { recursive: true });
  await writeFile(file, JSON.stringify(lease));
  return () => rm(file, { force: true });
}

/** Every lease in the marker directory (some may be of processes that died). */
export async function readLeases(plan: ScalePlan): Promise<Lease[]> {
  const names = await readdir(markerDirectory(plan)).catch(() => [] as string[]);
  const leases: Lease[] = [];
  for (const name of names.filter((item) => LEASE.test(item))) {
    const text = await readFile(join(markerDirectory(plan), name), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    try {
      leases.push(JSON.parse(text) as Lease);
    } catch {
      // A lease being written: its writer is alive, but it says nothing yet.
    }
  }
  return leases;
}
