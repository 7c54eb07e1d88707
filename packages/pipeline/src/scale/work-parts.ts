import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError, type DatasetStats } from '@tfpipe/core';
import { readError, writeError } from '@tfpipe/node-utils';
import { importSinkTfrecord } from '../plugins/import-peer.js';
import { mergeStats } from './merge-stats.js';
import type { ScalePlan } from './plan-types.js';
import { writeMarker, type MarkedFile, type ShardMarker, type SkippedRecord } from './shard-marker.js';
import { KEPT_SKIPPED_ERRORS } from './unit-source.js';
import {
  checkIndex,
  checkUnitInputs,
  indexStem,
  writeStaged,
  type StagedFile,
  type StagedOutput,
  type WorkShardOptions,
} from './work-shard.js';

/**
 * Whether an index's output equals its parts' outputs joined end to end, so that parts of one index
 * may run on different lanes: uncompressed records are self-framed (a gzip or zlib stream is not
 * one stream once joined), no `.idx` offsets to shift, and every record's fate independent of the
 * records before it in the index (the per-index shuffle and `sample` draw from one random stream).
 */
export function partsJoinable(plan: ScalePlan): boolean {
  const { config } = plan.pipeline;
  const sink = (config.sink.options ?? {}) as { compression?: string; suffix?: string; index?: boolean };
  const compressed =
    sink.compression === undefined
      ? sink.suffix !== undefined && /\.(gz|zz)$/.test(sink.suffix)
      : sink.compression !== 'none';
  return (
    !compressed &&
    sink.index !== true &&
    config.shuffle === undefined &&
    !(config.transforms ?? []).some((transform) => 'sample' in transform)
  );
}

/** A part of an index written into its own staging directory, not yet joined. */
export interface WrittenPart extends StagedOutput {
  /** The staging directory (removed by {@link PartsJoin}). */
  readonly staging: string;
}

/**
 * Writes `units` (some of index `index`'s, in its order) into a staging directory of their own,
 * left for {@link PartsJoin} to join with the index's other parts. Nothing gets a final name.
 *
 * @throws TfpipeError `PLAN_INDEX`, `INPUT_CHANGED` (naming the file), and the pipeline's errors.
 */
export async function workPart(
  plan: ScalePlan,
  index: number,
  units: readonly number[],
  options: WorkShardOptions = {},
): Promise<WrittenPart> {
  checkIndex(plan, index);
  await checkUnitInputs(plan, units);
  const { temporaryPath } = await importSinkTfrecord("a plan's work");
  await mkdir(plan.directory, { recursive: true });
  const staging = temporaryPath(plan.directory, `${indexStem(index)}-part`);
  try {
    await mkdir(staging);
    // Unsynced: PartsJoin copies the files into the index's joined file and syncs that one.
    return { staging, ...(await writeStaged(plan, index, units, staging, options, false)) };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Appends `path` to the open `target` (the file at `targetPath`), feeding `hash`. */
async function append(path: string, target: FileHandle, targetPath: string, hash: Hash): Promise<void> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      await target.write(chunk).catch((error: unknown) => {
        throw writeError(error, targetPath, 'work', 'joining the parts of a shard');
      });
    }
  } catch (error) {
    stream.destroy();
    throw error instanceof TfpipeError
      ? error
      : readError(error, path, 'work', 'joining the parts of a shard');
  }
}

/** One prefix's joined file while its parts are appended. */
interface JoinedFile {
  readonly path: string;
  readonly handle: FileHandle;
  readonly hash: Hash;
  /** The first part's file of this prefix (its manifest entry's keys and name suffix). */
  readonly first: StagedFile;
  records: number;
  bytes: number;
  uncompressedBytes: number;
  /** A background sync of what is appended so far, if any. */
  sync: Promise<void> | undefined;
  /** A background sync's failure, reported by the commit (the kernel reports it only once). */
  syncFailure: { error: unknown } | undefined;
}

/** Orders prefixes as the manifests' names sort (the order a whole index's files are listed in). */
function byManifestName(left: string, right: string): number {
  const [a, b] = [`${left}.manifest.json`, `${right}.manifest.json`];
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Index `index`'s files joined from its `count` parts, each prefix's part files end to end in the
 * index's unit order, into files under temporary names: a part is appended as soon as every part
 * before it is in (and what is appended synced in the background), so that once the last part
 * arrives only its own bytes are left to copy and sync. {@link commit} then renames each file to its
 * final name and writes the commit marker, as {@link workShard} commits a whole index. A part's
 * staging directory goes once it is appended; {@link discard} removes everything left.
 */
export class PartsJoin {
  readonly #plan: ScalePlan;
  readonly #index: number;
  readonly #parts: (WrittenPart | undefined)[];
  readonly #fsync: boolean;
  readonly #files = new Map<string, JoinedFile>();
  readonly #stats = new Map<string, DatasetStats[]>();
  /** Records the parts appended so far skipped, and the first of their errors, in unit order. */
  #skippedRecords = 0;
  readonly #skippedErrors: SkippedRecord[] = [];
  /** Parts appended so far (the first `#appended` in unit order). */
  #appended = 0;
  /** The appends so far, one after another; rejects with the first failure. */
  #chain: Promise<void> = Promise.resolve();
  #staging: string | undefined;

  constructor(plan: ScalePlan, index: number, count: number) {
    this.#plan = plan;
    this.#index = index;
    this.#parts = new Array<WrittenPart | undefined>(count).fill(undefined);
    this.#fsync = (plan.pipeline.config.sink.options as { fsync?: boolean } | undefined)?.fsync !== false;
  }

  /** Adds the part at `position` in the index's unit order, and appends every part now in order. */
  add(position: number, part: WrittenPart): void {
    this.#parts[position] = part;
    this.#chain = this.#chain.then(() => this.#appendReady());
    // Its failure is the commit's (see commit).
    this.#chain.catch(() => undefined);
  }

  async #appendReady(): Promise<void> {
    while (this.#appended < this.#parts.length && this.#parts[this.#appended] !== undefined) {
      const part = this.#parts[this.#appended]!;
      for (const file of part.files) await this.#append(part, file);
      for (const [prefix, stats] of Object.entries(part.stats))
        this.#stats.set(prefix, [...(this.#stats.get(prefix) ?? []), stats]);
      this.#skippedRecords += part.skippedRecords;
      for (const error of part.skippedErrors)
        if (this.#skippedErrors.length < KEPT_SKIPPED_ERRORS) this.#skippedErrors.push(error);
      this.#appended++;
      await rm(part.staging, { recursive: true, force: true });
      if (this.#fsync && this.#appended < this.#parts.length) {
        for (const joined of this.#files.values()) {
          joined.sync ??= joined.handle.datasync().then(
            () => {
              joined.sync = undefined;
            },
            (error: unknown) => {
              joined.sync = undefined;
              joined.syncFailure ??= { error };
            },
          );
        }
      }
    }
  }

  async #append(part: WrittenPart, file: StagedFile): Promise<void> {
    if (file.written.compression !== 'none' || file.written.index !== undefined) {
      throw new TfpipeError(
        'INTERNAL',
        `a compressed or indexed part cannot be joined: ${file.written.name}`,
        {
          stage: 'work',
          fatal: true,
        },
      );
    }
    const { temporaryPath, shardName } = await importSinkTfrecord("a plan's work");
    if (this.#staging === undefined) {
      this.#staging = temporaryPath(this.#plan.directory, indexStem(this.#index));
      await mkdir(this.#staging);
    }
    let joined = this.#files.get(file.prefix);
    if (joined === undefined) {
      const path = join(
        this.#staging,
        shardName(file.prefix, this.#index, this.#plan.shardCount, file.suffix),
      );
      const handle = await open(path, 'wx').catch((error: unknown) => {
        throw writeError(error, path, 'work', 'joining the parts of a shard');
      });
      joined = {
        path,
        handle,
        hash: createHash('sha256'),
        first: file,
        records: 0,
        bytes: 0,
        uncompressedBytes: 0,
        sync: undefined,
        syncFailure: undefined,
      };
      this.#files.set(file.prefix, joined);
    }
    await append(join(part.staging, file.written.name), joined.handle, joined.path, joined.hash);
    joined.records += file.written.records;
    joined.bytes += file.written.bytes;
    joined.uncompressedBytes += file.written.uncompressedBytes;
  }

  /**
   * Once every part is added: syncs each joined file (unless the sink's `fsync` is false), renames it
   * to its final name, then writes the marker. Everything temporary is removed either way.
   * @throws TfpipeError `INTERNAL` when a part is compressed or indexed (see {@link partsJoinable}), write errors.
   */
  async commit(): Promise<ShardMarker> {
    try {
      await this.#chain;
      if (this.#appended !== this.#parts.length) {
        throw new TfpipeError('INTERNAL', `index ${this.#index} was committed before all its parts were in`, {
          stage: 'work',
          fatal: true,
        });
      }
      const files: MarkedFile[] = [];
      const stats: Record<string, DatasetStats> = {};
      const { shardName } = await importSinkTfrecord("a plan's work");
      for (const prefix of [...this.#files.keys()].sort(byManifestName)) {
        const joined = this.#files.get(prefix)!;
        await joined.sync;
        if (joined.syncFailure !== undefined)
          throw writeError(joined.syncFailure.error, joined.path, 'work', 'joining the parts of a shard');
        if (this.#fsync) {
          await joined.handle.datasync().catch((error: unknown) => {
            throw writeError(error, joined.path, 'work', 'joining the parts of a shard');
          });
        }
        const final = shardName(prefix, this.#index, this.#plan.shardCount, joined.first.suffix);
        // The keys in the order the sink's manifest gives them, so that the manifests match a whole run's.
        files.push({
          ...joined.first.written,
          name: final,
          records: joined.records,
          bytes: joined.bytes,
          uncompressedBytes: joined.uncompressedBytes,
          sha256: joined.hash.digest('hex'),
          prefix,
        });
        stats[prefix] = mergeStats(this.#stats.get(prefix) ?? []);
      }
      for (const file of files)
        await rename(join(this.#staging!, file.name), join(this.#plan.directory, file.name));
      const marker: ShardMarker = {
        plan: this.#plan.checksum,
        index: this.#index,
        files,
        stats,
        skippedRecords: this.#skippedRecords,
        skippedErrors: this.#skippedErrors,
      };
      await writeMarker(this.#plan, marker);
      return marker;
    } finally {
      await this.discard();
    }
  }

  /** Closes and removes the joined files not renamed and every part's staging directory. */
  async discard(): Promise<void> {
    await this.#chain.catch(() => undefined);
    for (const joined of this.#files.values()) {
      await joined.sync;
      await joined.handle.close().catch(() => undefined);
    }
    this.#files.clear();
    if (this.#staging !== undefined) {
      const { releaseTemporary } = await importSinkTfrecord("a plan's work");
      await rm(this.#staging, { recursive: true, force: true });
      releaseTemporary(this.#staging);
    }
    for (const part of this.#parts)
      if (part !== undefined) await rm(part.staging, { recursive: true, force: true });
  }
}
