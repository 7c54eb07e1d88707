import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { filterRows, mapRows, sampleRows, take, TfpipeError } from '@tfpipe/core';
import type { PluginContext, SinkPluginDefinition, SourcePluginDefinition } from '@tfpipe/core/plugin';
import type { SplitAssigner } from '../stages/assign-split.js';
import { validateWith } from './format-issues.js';
import type { PipelineConfig, TransformConfig } from './pipeline-config.js';
import { resolvePlugin } from '../plugins/resolve-plugin.js';

/** A row transform ready to instantiate, with a line for the plan. */
export interface CompiledTransform {
  readonly describe: string;
  readonly create: () => TransformStream<unknown, unknown>;
}

/** A checked pipeline: plugins resolved, options validated, expressions compiled, split checked. */
export interface LoadedPipeline {
  readonly config: PipelineConfig;
  /** The config file, when it came from one. */
  readonly file: string | undefined;
  readonly source: SourcePluginDefinition;
  readonly sourceOptions: unknown;
  readonly sink: SinkPluginDefinition;
  readonly sinkOptions: unknown;
  /** Paths in options resolve against the file's directory (or the working directory in code). */
  readonly context: PluginContext;
  readonly transforms: readonly CompiledTransform[];
  readonly split: SplitAssigner | undefined;
}

/**
 * Reads, parses and checks a pipeline file (`.json`, `.yaml`, `.yml`) and resolves its plugins:
 * nothing is read or written yet. Paths in the file are relative to the file.
 *
 * @param path The pipeline file, relative to `cwd`.
 * @param cwd The directory `path` is relative to. @default process.cwd()
 * @throws TfpipeError `INPUT_NOT_FOUND` or `IO` (the file), `CONFIG_PARSE`, `CONFIG_SCHEMA`,
 *   `UNKNOWN_PLUGIN`, `SPLIT`.
 */
export async function loadPipelineFile(path: string, cwd: string = process.cwd()): Promise<LoadedPipeline> {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new TfpipeError(missing ? 'INPUT_NOT_FOUND' : 'IO', 'cannot read the config file', {
      stage: 'config',
      fatal: true,
      position: { file: path },
      cause: error,
    });
  }
  const { parsePipelineConfig } = await import('./parse-pipeline-config.js');
  const config = await parsePipelineConfig(text, { file: path });
  return loadPipeline(config, { baseDirectory: dirname(file), file: path });
}

/** Compiles a `filter` expression's text to a predicate (the expression module, loaded only when a filter is text). */
type CompileExpression = (text: string) => (row: unknown) => boolean;

function compileTransform(
  transform: TransformConfig,
  index: number,
  file: string | undefined,
  rowExpression: CompileExpression | undefined,
): CompiledTransform {
  const field = `transforms[${index}]`;
  if ('filter' in transform) {
    const { filter } = transform;
    if (typeof filter === 'function')
      return { describe: 'filter (a function)', create: () => filterRows(filter) };
    let predicate: (row: unknown) => boolean;
    try {
      predicate = rowExpression!(filter);
    } catch (error) {
      if (!TfpipeError.is(error)) throw error;
      throw new TfpipeError(
        'CONFIG_SCHEMA',
        `${field}.filter: ${error.message} of ${JSON.stringify(filter)}`,
        {
          stage: 'config',
          fatal: true,
          position: file === undefined ? {} : { file },
        },
      );
    }
    return { describe: `filter ${filter}`, create: () => filterRows(predicate) };
  }
  if ('map' in transform) return { describe: 'map (a function)', create: () => mapRows(transform.map) };
  if ('take' in transform) return { describe: `take ${transform.take}`, create: () => take(transform.take) };
  if ('sample' in transform) {
    const { sample } = transform;
    const what =
      sample.count !== undefined ? `${sample.count} rows` : `${(sample.fraction ?? 0) * 100}% of rows`;
    const stage = () => sampleRows(sample);
    stage(); // checks the options now, before anything runs
    return { describe: `sample ${what} (seed ${sample.seed ?? 0})`, create: stage };
  }
  throw new TfpipeError('CONFIG_SCHEMA', `${field}: expected one of filter, map, take, sample`, {
    stage: 'config',
    fatal: true,
  });
}

/**
 * Checks a pipeline config (from a file, or written in code) and resolves its plugins. Nothing is
 * read or written yet. Throws `CONFIG_SCHEMA`, `UNKNOWN_PLUGIN` or `SPLIT` (one line, the exact key).
 */
export async function loadPipeline(
  config: PipelineConfig,
  where: { readonly baseDirectory: string; readonly file?: string | undefined },
): Promise<LoadedPipeline> {
  const { baseDirectory, file } = where;
  const source: SourcePluginDefinition = await resolvePlugin(
    config.source.plugin,
    'source',
    'source.plugin',
    baseDirectory,
    file,
  );
  const sink: SinkPluginDefinition = await resolvePlugin(
    config.sink.plugin,
    'sink',
    'sink.plugin',
    baseDirectory,
    file,
  );
  const sourceOptions = await validateWith(
    source.options,
    config.source.options ?? {},
    ['source', 'options'],
    config,
    file,
  );
  const sinkOptions = await validateWith(
    sink.options,
    config.sink.options ?? {},
    ['sink', 'options'],
    config,
    file,
  );
  // A plain run loads neither the expression parser nor the split code.
  const textFilters = (config.transforms ?? []).some(
    (transform) => 'filter' in transform && typeof transform.filter !== 'function',
  );
  const rowExpression = textFilters ? (await import('../stages/row-expression.js')).rowExpression : undefined;
  const transforms = (config.transforms ?? []).map((transform, index) =>
    compileTransform(transform, index, file, rowExpression),
  );
  let split: SplitAssigner | undefined;
  if (config.split !== undefined) {
    const { splitAssigner } = await import('../stages/assign-split.js');
    try {
      split = splitAssigner(config.split);
    } catch (error) {
      throw TfpipeError.is(error) && file !== undefined ? error.withPosition({ file }) : error;
    }
  }
  return {
    config,
    file,
    source,
    sourceOptions,
    sink,
    sinkOptions,
    context: { resolvePath: (path) => resolve(baseDirectory, path), onError: config.onError ?? 'fail' },
    transforms,
    split,
  };
}
