import { loadPipeline, loadPipelineFile, type LoadedPipeline } from './load-pipeline.js';
import type { PipelineConfig } from './pipeline-config.js';

/**
 * What `runPipeline` runs: the path of a pipeline file, a config object (`definePipelineConfig`)
 * or a pipeline already loaded with `loadPipeline` / `loadPipelineFile`.
 */
export type PipelineInput<SourceOptions = unknown, Row = unknown, SinkOptions = unknown> =
  string | PipelineConfig<SourceOptions, Row, SinkOptions> | LoadedPipeline;

function isLoaded(input: object): input is LoadedPipeline {
  // A config names its plugins under `source.plugin`; only a loaded pipeline has checked options.
  return 'sourceOptions' in input && 'sinkOptions' in input && 'context' in input;
}

/**
 * Loads what `runPipeline` was given: a file path relative to `cwd` (paths inside it relative to
 * the file), a config (paths relative to `cwd`), or a loaded pipeline as it is.
 */
export async function loadPipelineInput<SourceOptions, Row, SinkOptions>(
  input: PipelineInput<SourceOptions, Row, SinkOptions>,
  cwd: string = process.cwd(),
): Promise<LoadedPipeline> {
  if (typeof input === 'string') return loadPipelineFile(input, cwd);
  if (isLoaded(input)) return input;
  return loadPipeline(input as PipelineConfig, { baseDirectory: cwd });
}
