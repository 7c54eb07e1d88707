import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { TfpipeError, type DatasetStats, type Progress } from '@tfpipe/core';
import type { ManifestShard, TfrecordManifest } from '@tfpipe/sink-tfrecord';
import { loadPipeline, type LoadedPipeline } from '../config/load-pipeline.js';
import { importSinkTfrecord } from '../plugins/import-peer.js';
import { runPipeline } from '../run/run-pipeline.js';
import { checkPlanInputs } from './plan-file.js';
import type { ScalePlan } from './plan-types.js';
import {
  readMarker,
  takeLease,
  writeMarker,
  type MarkedFile,
  type ShardMarker,
  type SkippedRecord,
} from './shard-marker.js';
import { crashPoint } from './crash-point.js';
import { KEPT_SKIPPED_ERRORS, unitSource } from './unit-source.js';

/** Options of {@link workShard}. */
export interface WorkShardOptions {
  /** Aborting it stops the shard and removes its temporaries. */
  readonly signal?: AbortSignal;
  /** Progress of this shard. */
  readonly onProgress?: (progress: Progress) => void;
  /**
   * Processes working this plan's indexes at once on this machine (`runPlannedPipeline`'s
   * `workers`), so that per-process defaults share the cores: with 2 or more, an image source's
   * `concurrency` default (images decoded at once) is divided among them, unless the pipeline sets
   * it. The bytes written are the same for any value. @default 1
   */
  readonly lanes?: number;
  /**
   * Called once the shard has read all its input: what is left is writing out its last records,
   * syncing, renaming and committing (`runPlannedPipeline`'s lanes start their next task then).
   * Not called for an image source, nor for an index committed already.
   */
  readonly onInputRead?: () => void;
}

/** What {@link workShard} did. */
export interface WorkShardResult {
  /** True when the shard was committed already (by this or another worker) and nothing was done. */
  readonly skipped: boolean;
  readonly marker: ShardMarker;
}

/** Checks `index` against the plan. @throws TfpipeError `PLAN_INDEX` */
export function checkIndex(plan: ScalePlan, index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index >= plan.shardCount) {
    throw new TfpipeError(
      'PLAN_INDEX',
      `index ${index} is out of range: the plan has indexes 0 to ${plan.shardCount - 1}`,
      {
        stage: 'work',
        fatal: true,
        position: { field: 'index' },
      },
    );
  }
}

/** Images an image source decodes at once by default in one process (its `concurrency` default when decoding). */
const IMAGES_IN_FLIGHT = 4;

/**
 * The source options of one of `lanes` processes working a plan at once: an image source's
 * `concurrency` default divided among them (unless the pipeline sets it); other sources' as given.
 */
export function laneSourceOptions(
  loaded: Pick<LoadedPipeline, 'source' | 'sourceOptions'>,
  lanes: number,
  cores = availableParallelism(),
): Record<string, unknown> {
  const options = loaded.sourceOptions as Record<string, unknown>;
  if (lanes < 2 || loaded.source.name !== '@tfpipe/source-images' || options.concurrency !== undefined)
    return options;
  return { ...options, concurrency: Math.max(1, Math.floor(Math.max(IMAGES_IN_FLIGHT, cores) / lanes)) };
}

/** How {@link shardPipeline} runs some units of an index, beyond the plan. */
export interface ShardPipelineOptions {
  /** See {@link WorkShardOptions.lanes}. @default 1 */
  readonly lanes?: number;
  /** See {@link WorkShardOptions.onInputRead}. */
  readonly onInputRead?: () => void;
  /**
   * Whether the sink syncs its files: false for a part's files, which are copied into the index's
   * joined file, and that one is synced. @default the pipeline's sink `fsync`
   */
  readonly sync?: boolean;
}

/**
 * The pipeline as shard `index` runs it: `units` (by default all of the index's) as the source, one
 * shard into `staging`; per-process defaults shared among `lanes` processes (see
 * {@link WorkShardOptions.lanes}).
 */
export async function shardPipeline(
  plan: ScalePlan,
  index: number,
  staging: string,
  units: readonly number[] = plan.shards[index]!.units,
  options: ShardPipelineOptions = {},
): Promise<LoadedPipeline> {
  const { config, baseDirectory } = plan.pipeline;
  const shuffle = config.shuffle;
  const loaded = await loadPipeline(
    {
      ...config,
      readerSpec: [],
      // Each shard shuffles its own records with its own seed, derived from the pipeline's and its index.
      ...(shuffle === undefined
        ? {}
        : { shuffle: { ...shuffle, seed: ((shuffle.seed ?? 0) ^ Math.imul(index + 1, 0x9e3779b1)) | 0 } }),
    },
    { baseDirectory },
  );
  const sinkOptions = loaded.sinkOptions as Record<string, unknown>;
  return {
    ...loaded,
    source: unitSource(
      plan,
      loaded.source,
      laneSourceOptions(loaded, options.lanes ?? 1),
      units,
      options.onInputRead,
    ),
    sinkOptions: {
      ...sinkOptions,
      directory: staging,
      shards: 1,
      overwrite: false,
      manifest: true,
      ...(options.sync === false ? { fsync: false } : {}),
    },
  };
}

/** The sink's manifest ending, and the name part of its one shard in the staging directory. */
const MANIFEST = '.manifest.json';
const ONE_SHARD = '-00000-of-00001';

/** One file the sink wrote into a staging directory, as its manifest lists it. */
export interface StagedFile {
  /** The split, or the sink's prefix without a split. */
  readonly prefix: string;
  /** What follows the shard numbers in its name (`.tfrecord`). */
  readonly suffix: string;
  /** The manifest's entry; `name` and `index` are names in the staging directory. */
  readonly written: ManifestShard;
}

/** What a run of some units of an index wrote into its staging directory. */
export interface StagedOutput {
  /** Files in prefix order (the manifests' names sorted). */
  readonly files: readonly StagedFile[];
  /** What the records hold, per prefix. */
  readonly stats: Readonly<Record<string, DatasetStats>>;
  /** Records dropped under `onError: 'skip'`, by the source and every stage. */
  readonly skippedRecords: number;
  /** The first of their errors (positions in whole-file terms), as JSON. */
  readonly skippedErrors: readonly SkippedRecord[];
}

/**
 * Runs `units` of index `index` through the pipeline into `staging` (one shard per prefix, with
 * manifests); `sync: false` leaves the files unsynced (see {@link ShardPipelineOptions.sync}).
 */
export async function writeStaged(
  plan: ScalePlan,
  index: number,
  units: readonly number[],
  staging: string,
  options: WorkShardOptions,
  sync = true,
): Promise<StagedOutput> {
  const loaded = await shardPipeline(plan, index, staging, units, {
    ...(options.lanes === undefined ? {} : { lanes: options.lanes }),
    ...(options.onInputRead === undefined ? {} : { onInputRead: options.onInputRead }),
    ...(sync ? {} : { sync: false }),
  });
  const { summary } = await runPipeline(loaded, {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onProgress: (progress) => {
      if (progress.records > 0) crashPoint('mid-write');
      options.onProgress?.(progress);
    },
  });
  const files: StagedFile[] = [];
  const stats: Record<string, DatasetStats> = {};
  for (const name of (await readdir(staging)).filter((item) => item.endsWith(MANIFEST)).sort()) {
    const manifest = JSON.parse(await readFile(join(staging, name), 'utf8')) as TfrecordManifest;
    const prefix = name.slice(0, -MANIFEST.length);
    stats[prefix] = manifest;
    for (const written of manifest.shards) {
      const suffix = written.name.slice(written.name.indexOf(ONE_SHARD) + ONE_SHARD.length);
      files.push({ prefix, suffix, written });
    }
  }
  const skippedErrors = summary.skippedErrors.slice(0, KEPT_SKIPPED_ERRORS).map((error) => error.toJSON());
  return { files, stats, skippedRecords: summary.skipped, skippedErrors };
}

/** Checks that the inputs `units` read are as planned. @throws TfpipeError `INPUT_CHANGED` */
export async function checkUnitInputs(plan: ScalePlan, units: readonly number[]): Promise<void> {
  // (An image folder tree has no input entry: its listing's digest is checked when it is read.)
  const inputs = units.flatMap((unit) => plan.inputs[plan.units[unit]!.input] ?? []);
  await checkPlanInputs([...new Set(inputs)]);
}

/** The name stem of index `index`'s temporaries. */
export function indexStem(index: number): string {
  return `shard-${String(index).padStart(5, '0')}`;
}

/**
 * Writes shard `index` of a plan: its units through the pipeline into a temporary directory beside
 * the output, each file then renamed to its final name (`PREFIX-<index>-of-<shards>`), then the commit
 * marker (records, bytes, SHA-256 of each file). An index already committed is not run again; two
 * runs of one index at once write the same bytes under the same names, so either may win.
 *
 * @throws TfpipeError `PLAN_INDEX`, `INPUT_CHANGED` (naming the file), and the pipeline's errors.
 */
export async function workShard(
  plan: ScalePlan,
  index: number,
  options: WorkShardOptions = {},
): Promise<WorkShardResult> {
  checkIndex(plan, index);
  const committed = await readMarker(plan, index);
  if (committed !== undefined) return { skipped: true, marker: committed };
  const shard = plan.shards[index]!;
  await checkUnitInputs(plan, shard.units);
  const { removeStaleTemporaries, temporaryPath, releaseTemporary, shardName } =
    await importSinkTfrecord("a plan's work");
  const stem = indexStem(index);
  await mkdir(plan.directory, { recursive: true });
  // Temporaries of this index left by a killed worker on this host.
  await removeStaleTemporaries(plan.directory, stem);
  const dropLease = await takeLease(plan, index);
  const staging = temporaryPath(plan.directory, stem);
  try {
    await mkdir(staging);
    const staged = await writeStaged(plan, index, shard.units, staging, options);
    const files: MarkedFile[] = [];
    const renames: [string, string][] = [];
    for (const { prefix, suffix, written } of staged.files) {
      const { index: indexFile, ...entry } = written;
      const final = shardName(prefix, index, plan.shardCount, suffix);
      files.push({ ...entry, name: final, prefix });
      renames.push([entry.name, final]);
      if (indexFile !== undefined) renames.push([indexFile, `${final}.idx`]);
    }
    crashPoint('before-rename');
    for (const [from, to] of renames) await rename(join(staging, from), join(plan.directory, to));
    crashPoint('before-marker');
    const marker: ShardMarker = {
      plan: plan.checksum,
      index,
      files,
      stats: staged.stats,
      skippedRecords: staged.skippedRecords,
      skippedErrors: staged.skippedErrors,
    };
    await writeMarker(plan, marker);
    return { skipped: false, marker };
  } finally {
    await rm(staging, { recursive: true, force: true });
    releaseTemporary(staging);
    await dropLease();
  }
}
