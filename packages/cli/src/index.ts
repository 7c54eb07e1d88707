/**
 * @module @tfpipe/cli
 * The `tfpipe` command line as a function, for tests and for tools that embed it, and the pipeline
 * config that `tfpipe run` executes, usable from code.
 */
export { main } from './main.js';
export type { CliIo } from './io.js';
export { jsonLinesSource } from './jsonl-source.js';
export type { JsonLinesSourceOptions } from './jsonl-source.js';
export { definePipelineConfig } from './config/pipeline-config.js';
export type {
  PipelineConfig,
  PluginReference,
  TransformConfig,
  SplitConfig,
  ShuffleConfig,
  ReaderSpecFormat,
} from './config/pipeline-config.js';
export { runPipelineConfig } from './config/run-pipeline-config.js';
export type { RunPipelineConfigOptions } from './config/run-pipeline-config.js';
export { loadPipeline, loadPipelineFile } from './config/load-pipeline.js';
export type { LoadedPipeline, CompiledTransform } from './config/load-pipeline.js';
export { runPipeline } from './config/run-pipeline.js';
export type { RunPipelineOptions, PipelineResult } from './config/run-pipeline.js';
export { jsonLinesPlugin } from './config/jsonl-plugin.js';
export { PLUGIN_ALIASES } from './config/resolve-plugin.js';
