import { stat } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { expandPaths, readError } from '@tfpipe/node-utils';
import type { LoadedPipeline } from '../config/load-pipeline.js';
import { importPeer } from '../plugins/import-peer.js';
import type { PlanInput, PlanUnit } from './plan-types.js';

const STAGE = 'plan';

/** What a source's inputs become in a plan. */
export interface PlannedInputs {
  readonly inputs: PlanInput[];
  readonly units: PlanUnit[];
  /** Options every unit's source gets on top of the pipeline's (fixed once so that shards agree). */
  readonly sourceOptions: Record<string, unknown>;
}

/** The source plugins a plan can cut, by plugin name. */
const PLANNABLE = new Set([
  '@tfpipe/source-csv',
  '@tfpipe/source-parquet',
  '@tfpipe/cli/jsonl',
  '@tfpipe/source-images',
]);
/** Images per unit at most (fewer so that every index gets several units). */
export const DEFAULT_UNIT_IMAGES = 1024;

function unsupported(message: string, field: string): TfpipeError {
  return new TfpipeError('PLAN_INVALID', message, { stage: STAGE, fatal: true, position: { field } });
}

async function planInput(path: string): Promise<PlanInput> {
  try {
    const info = await stat(path);
    return { path, size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    throw readError(error, path, STAGE, 'planning');
  }
}

/** How big units may be. */
export interface UnitLimits {
  /** Largest CSV byte range, in bytes. */
  readonly unitBytes: number;
  /** Most images per unit. */
  readonly unitImages: number;
  /** Units aimed for in all (units are cut smaller, down to these limits' ratio, to get them). */
  readonly unitsWanted: number;
}

/**
 * Lists a pipeline's input files and cuts them into units: CSV files into byte ranges at record
 * starts (at most about `unitBytes` each, smaller so that there are about `unitsWanted`), Parquet
 * files into row groups, JSON Lines files whole, image inputs into runs of images in their order.
 *
 * @throws TfpipeError `PLAN_INVALID` for a source or option a plan cannot cut (naming the key).
 */
export async function planInputs(loaded: LoadedPipeline, limits: UnitLimits): Promise<PlannedInputs> {
  const { unitBytes, unitsWanted } = limits;
  const name = loaded.source.name;
  if (!PLANNABLE.has(name)) {
    throw unsupported(
      `a plan cannot cut the input of ${name} yet (csv, parquet, jsonl and images can be planned)`,
      'source.plugin',
    );
  }
  if (name === '@tfpipe/source-images') return planImages(loaded, limits);
  const options = loaded.sourceOptions as { path?: string; paths?: string[] } & Record<string, unknown>;
  const patterns = (options.paths ?? (options.path === undefined ? [] : [options.path])).map((path) =>
    loaded.context.resolvePath(path),
  );
  const files = await expandPaths(patterns, { stage: STAGE });
  const inputs = await Promise.all(files.map(planInput));
  if (name === '@tfpipe/source-parquet') return planParquet(options, inputs);
  if (name === '@tfpipe/source-csv') {
    const total = inputs.reduce((sum, input) => sum + input.size, 0);
    return planCsv(loaded, options, inputs, Math.max(1, Math.min(unitBytes, Math.ceil(total / unitsWanted))));
  }
  return { inputs, units: inputs.map((_, input) => ({ input, kind: 'file' })), sourceOptions: {} };
}

async function planParquet(options: Record<string, unknown>, inputs: PlanInput[]): Promise<PlannedInputs> {
  for (const key of ['rowStart', 'rowEnd']) {
    if (options[key] !== undefined) {
      throw unsupported(`a plan cuts Parquet files by row group: remove ${key}`, `source.options.${key}`);
    }
  }
  const { parquetSchema } = await importPeer(
    '@tfpipe/source-parquet',
    () => import('@tfpipe/source-parquet'),
    'planning a Parquet source',
  );
  const chosen = options.rowGroups as readonly number[] | undefined;
  const units: PlanUnit[] = [];
  for (const [input, { path }] of inputs.entries()) {
    const { rowGroups } = await parquetSchema(path);
    for (let rowGroup = 0; rowGroup < rowGroups; rowGroup++) {
      if (chosen === undefined || chosen.includes(rowGroup))
        units.push({ input, kind: 'rowGroup', rowGroup });
    }
  }
  return { inputs, units, sourceOptions: {} };
}

/** The names a CSV without a header gives its columns (`column1`, …). */
function columnNamesOf(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `column${index + 1}`);
}

async function planCsv(
  loaded: LoadedPipeline,
  options: Record<string, unknown>,
  inputs: PlanInput[],
  unitBytes: number,
): Promise<PlannedInputs> {
  const csv = await importPeer(
    '@tfpipe/source-csv',
    () => import('@tfpipe/source-csv'),
    'planning a CSV source',
  );
  const { path: _path, paths: _paths, schemaFile, ...rest } = options;
  const header = rest.header === undefined || rest.header === true;
  // Comment lines may hold quotes the cut scan would misread: such files are read whole.
  const cuttable = rest.comment === undefined;
  let delimiter = rest.delimiter as string | undefined;
  let columnNames: string[] | undefined;
  const units: PlanUnit[] = [];
  for (const [input, { path }] of inputs.entries()) {
    if (!cuttable) {
      units.push({ input, kind: 'file' });
      continue;
    }
    const points = await csv.csvSplitPoints(path, {
      targetBytes: unitBytes,
      header,
      ...(delimiter === undefined ? {} : { delimiter }),
      ...(rest.quote === undefined ? {} : { quote: rest.quote as string }),
      ...(rest.escape === undefined ? {} : { escape: rest.escape as string }),
      ...(rest.skipEmptyLines === undefined ? {} : { skipEmptyLines: rest.skipEmptyLines as boolean }),
    });
    delimiter ??= points.delimiter;
    // Without a header the whole input names its columns from its first record: a range starting
    // elsewhere (maybe at a ragged row) gets those names instead of counting its own first record.
    if (rest.header === false) columnNames ??= columnNamesOf(points.firstRecordFields);
    points.starts.forEach((start, index) => {
      const end = points.starts[index + 1] ?? points.size;
      const [line, row] = [points.lines[index]!, points.rows[index]!];
      units.push({ input, kind: 'bytes', start, end, headerEnd: points.headerEnd, line, row });
    });
  }
  // Every shard must convert cells with the same kinds and vocabularies: infer them once, from all files.
  const given =
    schemaFile === undefined
      ? rest.schema
      : await csv.loadSchema(loaded.context.resolvePath(schemaFile as string));
  const schema = await csv.inferCsvSchema({
    ...(rest as object),
    paths: inputs.map((input) => input.path),
    ...(delimiter === undefined ? {} : { delimiter }),
    ...(given === undefined ? {} : { schema: given as never }),
    onError: loaded.context.onError,
  });
  return {
    inputs,
    units,
    sourceOptions: {
      ...(delimiter === undefined ? {} : { delimiter }),
      ...(columnNames === undefined ? {} : { header: columnNames }),
      schema,
    },
  };
}

/** The image plugin's path options, resolved as the plugin resolves them. */
const IMAGE_PATHS = ['folder', 'list', 'coco', 'voc', 'images'] as const;

/**
 * Image inputs: the listing is read once (no image is opened), its label map and SHA-256 fixed in the
 * plan (every index reads the whole listing again and refuses one that differs), and the images cut
 * into runs of at most `unitImages`, smaller so that there are about `unitsWanted`.
 */
async function planImages(loaded: LoadedPipeline, limits: UnitLimits): Promise<PlannedInputs> {
  const images = await importPeer(
    '@tfpipe/source-images',
    () => import('@tfpipe/source-images'),
    'planning an image source',
  );
  const options = { ...(loaded.sourceOptions as Record<string, unknown>) };
  for (const key of IMAGE_PATHS) {
    if (typeof options[key] === 'string') options[key] = loaded.context.resolvePath(options[key]);
  }
  if (Array.isArray(options.exclude))
    options.exclude = options.exclude.map((item: string) => loaded.context.resolvePath(item));
  const listing = await images.imageListing(options);
  // A list or annotation file is checked by size and mtime too; a folder tree by its listing only.
  const file = typeof options.list === 'string' ? options.list : (options.coco as string | undefined);
  const inputs = file === undefined ? [] : [await planInput(file)];
  const size = Math.max(1, Math.min(limits.unitImages, Math.ceil(listing.images / limits.unitsWanted)));
  const units: PlanUnit[] = [];
  for (let start = 0; start < listing.images; start += size) {
    units.push({
      input: file === undefined ? -1 : 0,
      kind: 'images',
      start,
      end: Math.min(listing.images, start + size),
    });
  }
  return {
    inputs,
    units,
    sourceOptions: {
      listingSha256: listing.sha256,
      ...(listing.labelMap === undefined ? {} : { labelMap: listing.labelMap }),
    },
  };
}
