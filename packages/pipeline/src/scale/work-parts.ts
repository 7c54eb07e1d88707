import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError, type DatasetStats } from '@tfpipe/core';
import { readError, writeError } from '@tfpipe/node-utils';
import { importSinkTfrecord } from '../plugins/import-peer.js';
import { mergeStats } from './merge-stats.js';
import type { ScalePlan } from './plan-types.js';
import { writeMarker, type MarkedFile, type ShardMarker } from './shard-marker.js';
import {
  checkIndex,
  checkUnitInputs,
  indexStem,
  writeStaged,
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
  /** The staging directory (removed by {@link commitParts}). */
  readonly staging: string;
}

/**
 * Writes `units` (some of index `index`'s, in its order) into a staging directory of their own,
 * left for {@link commitParts} to join with the index's other parts. Nothing gets a final name.
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
    return { staging, ...(await writeStaged(plan, index, units, staging, options)) };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Appends `path` to the open `target` (the file at `targetPath`), feeding `hash`. */
async function append(
  path: string,
  target: Awaited<ReturnType<typeof open>>,
  targetPath: string,
  hash: ReturnType<typeof createHash>,
): Promise<void> {
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

/**
 * Commits index `index` from its parts (in order): each prefix's part files joined end to end into
 * one file written under a temporary name (synced unless the sink's `fsync` is false), renamed to its
 * final name, then the commit marker, as {@link workShard} commits a whole index. The parts' staging
 * directories are removed either way.
 *
 * @throws TfpipeError `INTERNAL` when a part is compressed or indexed (see {@link partsJoinable}), write errors.
 */
export async function commitParts(
  plan: ScalePlan,
  index: number,
  parts: readonly WrittenPart[],
): Promise<ShardMarker> {
  const { temporaryPath, releaseTemporary, shardName } = await importSinkTfrecord("a plan's work");
  const staging = temporaryPath(plan.directory, indexStem(index));
  const fsync = (plan.pipeline.config.sink.options as { fsync?: boolean } | undefined)?.fsync !== false;
  try {
    await mkdir(staging);
    const prefixes = [...new Set(parts.flatMap((part) => part.files.map((file) => file.prefix)))].sort(
      (left, right) => {
        const [a, b] = [`${left}.manifest.json`, `${right}.manifest.json`];
        return a < b ? -1 : a > b ? 1 : 0;
      },
    );
    const files: MarkedFile[] = [];
    const stats: Record<string, DatasetStats> = {};
    const renames: [string, string][] = [];
    for (const prefix of prefixes) {
      const pieces = parts.flatMap((part) =>
        part.files.filter((file) => file.prefix === prefix).map((file) => ({ part, file })),
      );
      const first = pieces[0]!.file;
      for (const { file } of pieces) {
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
      }
      const final = shardName(prefix, index, plan.shardCount, first.suffix);
      const joined = join(staging, final);
      const hash = createHash('sha256');
      const target = await open(joined, 'wx').catch((error: unknown) => {
        throw writeError(error, joined, 'work', 'joining the parts of a shard');
      });
      try {
        for (const { part, file } of pieces)
          await append(join(part.staging, file.written.name), target, joined, hash);
        if (fsync) await target.datasync();
      } finally {
        await target.close();
      }
      const sum = (key: 'records' | 'bytes' | 'uncompressedBytes'): number =>
        pieces.reduce((total, { file }) => total + file.written[key], 0);
      // The keys in the order the sink's manifest gives them, so that the manifests match a whole run's.
      files.push({
        ...first.written,
        name: final,
        records: sum('records'),
        bytes: sum('bytes'),
        uncompressedBytes: sum('uncompressedBytes'),
        sha256: hash.digest('hex'),
        prefix,
      });
      stats[prefix] = mergeStats(parts.flatMap((part) => part.stats[prefix] ?? []));
      renames.push([joined, join(plan.directory, final)]);
    }
    for (const [from, to] of renames) await rename(from, to);
    const marker: ShardMarker = { plan: plan.checksum, index, files, stats };
    await writeMarker(plan, marker);
    return marker;
  } finally {
    await rm(staging, { recursive: true, force: true });
    releaseTemporary(staging);
    for (const part of parts) await rm(part.staging, { recursive: true, force: true });
  }
}
