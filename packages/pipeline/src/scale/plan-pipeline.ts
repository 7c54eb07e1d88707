import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { seededRandom, TfpipeError } from '@tfpipe/core';
import { loadPipeline } from '../config/load-pipeline.js';
import { parsePipelineConfig } from '../config/parse-pipeline-config.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { planChecksum, readPlanFile } from './plan-file.js';
import { DEFAULT_UNIT_IMAGES, planInputs } from './plan-units.js';
import { PLAN_FORMAT, PLAN_VERSION, type PlanShard, type ScalePlan } from './plan-types.js';
import { markerDirectory } from './shard-marker.js';

const STAGE = 'plan';
/** Units are cut to about this many bytes, or smaller so that every shard gets several. */
const DEFAULT_UNIT_BYTES = 64 * 1024 * 1024;
/** Units per shard aimed for when inputs are small: a shard holds a few units, not one huge one. */
const UNITS_PER_SHARD = 4;

/** Options of {@link planPipeline}. */
export interface PlanPipelineOptions {
  /** Work indexes, each writing one output shard per split. @default sink.options.shards, else 1 */
  readonly shards?: number;
  /** What a pipeline file's path and a config's relative paths resolve against. @default process.cwd() */
  readonly cwd?: string;
  /** Work indexes when neither `shards` nor `sink.options.shards` says. @default 1 */
  readonly defaultShards?: number;
  /** Largest CSV byte range per unit, in bytes. @default 67108864 (64 MiB) */
  readonly unitBytes?: number;
  /** Most images per unit of an image source (fewer when each index would get fewer than four units). @default 1024 */
  readonly unitImages?: number;
  /**
   * Accept an output directory that holds shards of this very plan (its plan file in the plan's
   * marker directory, no manifest yet): a planned run that was killed, run again (`runPlannedPipeline`
   * does, so that committed indexes are kept). @default false
   */
  readonly resume?: boolean;
  /**
   * Called once the config is read and found plannable, before its plugins load and its inputs are
   * scanned (`runPlannedPipeline` tells its waiting worker processes which plugins to load).
   */
  readonly onConfig?: (config: PipelineConfig) => void;
}

function refuse(message: string, field: string): TfpipeError {
  return new TfpipeError('PLAN_INVALID', message, { stage: STAGE, fatal: true, position: { field } });
}

/** Keys a plan cannot keep their meaning for across independent shards. */
function checkPlannable(config: PipelineConfig): void {
  if (typeof config.source.plugin !== 'string' || typeof config.sink.plugin !== 'string') {
    throw refuse('a plan names its plugins by name (a plan file holds no code)', 'source.plugin');
  }
  for (const [index, transform] of (config.transforms ?? []).entries()) {
    const field = `transforms[${index}]`;
    if ('take' in transform)
      throw refuse('take needs one reader of all rows: a plan cannot keep it', `${field}.take`);
    if ('map' in transform || ('filter' in transform && typeof transform.filter !== 'string')) {
      throw refuse('a plan holds no code: use a filter expression', field);
    }
    if ('sample' in transform && transform.sample.count !== undefined) {
      throw refuse('a sample of a count needs all rows at once: use fraction', `${field}.sample.count`);
    }
  }
}

const OUTPUT_NAME = /-\d{5,}-of-\d{5,}|\.manifest\.json$/;

/** A plan writes into a directory without shards or manifests: old and new output never mix. */
async function refuseExistingOutput(directory: string, resumed?: ScalePlan): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  if (resumed !== undefined && !names.some((name) => name.endsWith('.manifest.json'))) {
    // The output of a run of this very plan that ended before finalize: its indexes are its own.
    const written = await readPlanFile(join(markerDirectory(resumed), 'plan.json')).catch(() => undefined);
    if (written?.checksum === resumed.checksum) return;
  }
  const taken = names.find((name) => !name.startsWith('.') && OUTPUT_NAME.test(name));
  if (taken !== undefined) {
    throw new TfpipeError('OUTPUT_EXISTS', 'the output directory holds shards or a manifest already', {
      stage: STAGE,
      fatal: true,
      position: { file: `${directory}/${taken}` },
      reason: 'plan into an empty directory (or remove the old output first)',
    });
  }
}

/** The units in shuffled order (a seeded permutation), or as listed. */
function unitOrder(count: number, seed: number | undefined): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  if (seed === undefined) return order;
  const random = seededRandom(seed);
  for (let index = count - 1; index > 0; index--) {
    const other = random.below(index + 1);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/**
 * Plans a pipeline for many workers: lists its inputs (size and mtime recorded), cuts them into
 * units (CSV byte ranges at record starts, Parquet row groups, whole files), and deals the units to
 * `shards` work indexes in contiguous runs, in input order (or in a seeded permutation when the
 * pipeline shuffles). Each index then writes `PREFIX-<index>-of-<shards>` per split, alone.
 *
 * @param pipeline A pipeline file path or a config object (JSON only: plugin names, filter expressions).
 * @throws TfpipeError `PLAN_INVALID` (a source, sink or transform a plan cannot keep), the config's
 *   errors (`CONFIG_SCHEMA`, …), `INPUT_NOT_FOUND`.
 */
export async function planPipeline(
  pipeline: string | PipelineConfig,
  options: PlanPipelineOptions = {},
): Promise<ScalePlan> {
  const cwd = options.cwd ?? process.cwd();
  let config: PipelineConfig;
  let baseDirectory = cwd;
  let file: string | undefined;
  if (typeof pipeline === 'string') {
    file = resolve(cwd, pipeline);
    baseDirectory = dirname(file);
    config = await parsePipelineConfig(await readFile(file, 'utf8'), { file: pipeline });
  } else {
    config = pipeline;
  }
  checkPlannable(config);
  options.onConfig?.(config);
  const loaded = await loadPipeline(config, { baseDirectory, file });
  if (loaded.sink.name !== '@tfpipe/sink-tfrecord') {
    throw refuse(`a plan writes TFRecord shards, not ${loaded.sink.name}`, 'sink.plugin');
  }
  const sinkOptions = loaded.sinkOptions as Record<string, unknown>;
  for (const key of ['path', 'maxRecords', 'maxBytes']) {
    if (sinkOptions[key] !== undefined) {
      throw refuse(
        `a plan writes a fixed number of shards into a directory: remove ${key}`,
        `sink.options.${key}`,
      );
    }
  }
  const directory = loaded.sink.outputDirectory(loaded.sinkOptions, loaded.context);
  if (directory === undefined) throw refuse('a plan needs sink.options.directory', 'sink.options.directory');
  if (options.resume !== true) await refuseExistingOutput(directory);
  const shardCount =
    options.shards ?? (sinkOptions.shards as number | undefined) ?? options.defaultShards ?? 1;
  if (!Number.isSafeInteger(shardCount) || shardCount < 1) {
    throw new TfpipeError('INVALID_OPTION', `shards must be a whole number ≥ 1, got ${shardCount}`, {
      stage: STAGE,
      fatal: true,
    });
  }
  for (const [key, value] of [
    ['unitBytes', options.unitBytes],
    ['unitImages', options.unitImages],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
      throw new TfpipeError('INVALID_OPTION', `${key} must be a whole number ≥ 1, got ${value}`, {
        stage: STAGE,
        fatal: true,
        position: { field: key },
      });
    }
  }
  const planned = await planInputs(loaded, {
    unitBytes: options.unitBytes ?? DEFAULT_UNIT_BYTES,
    unitImages: options.unitImages ?? DEFAULT_UNIT_IMAGES,
    unitsWanted: shardCount * UNITS_PER_SHARD,
  });
  const order = unitOrder(planned.units.length, config.shuffle?.seed ?? (config.shuffle ? 0 : undefined));
  const shards: PlanShard[] = Array.from({ length: shardCount }, (_, index) => ({
    index,
    units: order.slice(
      Math.floor((index * order.length) / shardCount),
      Math.floor(((index + 1) * order.length) / shardCount),
    ),
  }));
  const plan: Omit<ScalePlan, 'checksum'> = {
    format: PLAN_FORMAT,
    planVersion: PLAN_VERSION,
    pipeline: { config, baseDirectory },
    directory,
    shardCount,
    sourceOptions: planned.sourceOptions,
    inputs: planned.inputs,
    units: planned.units,
    shards,
  };
  const checked: ScalePlan = { ...plan, checksum: planChecksum(plan) };
  if (options.resume === true) await refuseExistingOutput(directory, checked);
  return checked;
}
