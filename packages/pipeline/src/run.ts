/**
 * @module @tfpipe/pipeline/run
 * A plain run of a pipeline: load (check a config or a pipeline file and resolve its plugins) and
 * run it. The same functions as the main entry's, in an entry that loads none of the scale-out,
 * queue, dry-run or JSON Schema code: what a one-off run (`tfpipe convert`) imports. Splits, filter
 * expressions and the full shuffle still work here; their code loads when a pipeline uses them.
 */
export { loadPipeline, loadPipelineFile } from './config/load-pipeline.js';
export type { LoadedPipeline, CompiledTransform } from './config/load-pipeline.js';
export type { PipelineInput } from './config/load-pipeline-input.js';
export type { PipelineConfig } from './config/pipeline-config.js';
export { runPipeline } from './run/run-pipeline.js';
export type { RunPipelineOptions, PipelineResult } from './run/run-pipeline.js';
