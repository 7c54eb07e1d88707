import type { PipelineConfig } from '../config/pipeline-config.js';
import { runPipeline, type PipelineResult, type RunPipelineOptions } from './run-pipeline.js';

/** Options of {@link runPipelineConfig}: those of `runPipeline`. */
export type RunPipelineConfigOptions = RunPipelineOptions;

/**
 * Runs a pipeline config written in code (`definePipelineConfig`), exactly as `tfpipe run` runs a
 * file: plugin options checked by their schemas, the output directory checked, reader specs written.
 * The same as `runPipeline(config, options)`.
 */
export async function runPipelineConfig<SourceOptions, Row, SinkOptions>(
  config: PipelineConfig<SourceOptions, Row, SinkOptions>,
  options: RunPipelineConfigOptions = {},
): Promise<PipelineResult> {
  return runPipeline(config, options);
}
