import { loadPipeline } from '../config/load-pipeline.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { runPipeline, type PipelineResult, type RunPipelineOptions } from './run-pipeline.js';

/** Options of {@link runPipelineConfig}. */
export interface RunPipelineConfigOptions extends RunPipelineOptions {
  /** Directory relative paths in plugin options resolve against. @default process.cwd() */
  readonly cwd?: string;
}

/**
 * Runs a pipeline config written in code (`definePipelineConfig`), exactly as `tfpipe run` runs a
 * file: plugin options checked by their schemas, the output directory checked, reader specs written.
 */
export async function runPipelineConfig<SourceOptions, Row, SinkOptions>(
  config: PipelineConfig<SourceOptions, Row, SinkOptions>,
  options: RunPipelineConfigOptions = {},
): Promise<PipelineResult> {
  const loaded = await loadPipeline(config as PipelineConfig, {
    baseDirectory: options.cwd ?? process.cwd(),
  });
  return runPipeline(loaded, options);
}
