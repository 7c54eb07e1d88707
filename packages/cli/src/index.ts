/**
 * @module @tfpipe/cli
 * The `tfpipe` command line as a function, for tests and for tools that embed it. The pipeline
 * config that `tfpipe run` executes lives in `@tfpipe/pipeline`; its names are re-exported here.
 */
export { main } from './main.js';
export type { CliIo } from './io.js';
export {
  definePipelineConfig,
  jsonLinesPlugin,
  jsonLinesSource,
  loadPipeline,
  loadPipelineFile,
  PLUGIN_ALIASES,
  runPipeline,
  runPipelineConfig,
} from '@tfpipe/pipeline';
export type {
  CompiledTransform,
  JsonLinesSourceOptions,
  LoadedPipeline,
  PipelineConfig,
  PipelineResult,
  PluginReference,
  ReaderSpecFormat,
  RunPipelineConfigOptions,
  RunPipelineOptions,
  ShuffleConfig,
  SplitConfig,
  TransformConfig,
} from '@tfpipe/pipeline';
