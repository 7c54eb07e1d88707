/**
 * @module @tfpipe/pipeline
 * Declarative tfpipe pipelines: a pipeline file (JSON or YAML) or a config object names a source
 * plugin and its options, a feature spec, row transforms, a split, a shuffle and a sink; this package
 * checks it completely, resolves its plugins and runs it, committing every output file together.
 */

// Pipeline configs and files
export { definePipelineConfig } from './config/pipeline-config.js';
export type {
  PipelineConfig,
  PluginReference,
  TransformConfig,
  SplitConfig,
  ShuffleConfig,
  ReaderSpecFormat,
} from './config/pipeline-config.js';
export { loadPipeline, loadPipelineFile } from './config/load-pipeline.js';
export type { LoadedPipeline, CompiledTransform } from './config/load-pipeline.js';
export { parsePipelineConfig } from './config/parse-pipeline-config.js';
export type { ParsePipelineConfigOptions } from './config/parse-pipeline-config.js';
export type { PipelineInput } from './config/load-pipeline-input.js';
export { pipelineJsonSchema, PIPELINE_SCHEMA_URL } from './config/pipeline-json-schema.js';

// Running
export { runPipeline } from './run/run-pipeline.js';
export type { RunPipelineOptions, PipelineResult } from './run/run-pipeline.js';
export { runPipelineConfig } from './run/run-pipeline-config.js';
export type { RunPipelineConfigOptions } from './run/run-pipeline-config.js';
export { dryRun } from './run/dry-run.js';
export type { DryRunOptions } from './run/dry-run.js';
export { tfdsDatasetInfo, tfdsFeatures } from './run/tfds-metadata.js';
export type { WrittenSplit } from './run/tfds-metadata.js';

// Plugins
export { PLUGIN_ALIASES } from './plugins/resolve-plugin.js';
export { jsonLinesPlugin } from './plugins/jsonl-plugin.js';
export { jsonLinesSource } from './plugins/jsonl-source.js';
export type { JsonLinesSourceOptions } from './plugins/jsonl-source.js';

// Stages: splits, filter expressions, fan-out, the disk-backed full shuffle
export { splitAssigner } from './stages/assign-split.js';
export type {
  SplitOptions,
  HashSplitOptions,
  ColumnSplitOptions,
  SplitAssigner,
} from './stages/assign-split.js';
export { rowExpression, filterWhere } from './stages/row-expression.js';
export { parseRowExpression } from './stages/row-expression-parser.js';
export type { ExpressionNode, ExpressionLiteral } from './stages/row-expression-parser.js';
export { routeRows } from './stages/route-rows.js';
export type { RouteRowsOptions } from './stages/route-rows.js';
export { chainWritable } from './stages/chain-writable.js';
export { externalShuffle } from './stages/external-shuffle.js';
export type { ExternalShuffleOptions } from './stages/external-shuffle.js';

// Scaling out: a plan, shard work with a commit protocol, finalize, and runs on many processes
export { planPipeline } from './scale/plan-pipeline.js';
export type { PlanPipelineOptions } from './scale/plan-pipeline.js';
export { readPlanFile, writePlanFile, checkPlanInputs } from './scale/plan-file.js';
export { PLAN_VERSION } from './scale/plan-types.js';
export type { ScalePlan, PlanInput, PlanUnit, PlanShard } from './scale/plan-types.js';
export { workShard } from './scale/work-shard.js';
export type { WorkShardOptions, WorkShardResult } from './scale/work-shard.js';
export type { ShardMarker, MarkedFile } from './scale/shard-marker.js';
export { finalizePlan } from './scale/finalize-plan.js';
export type { FinalizeResult } from './scale/finalize-plan.js';
export { planStatus } from './scale/plan-status.js';
export type { PlanStatus } from './scale/plan-status.js';
export { schedulerIndex, SCHEDULER_INDEX_VARIABLES } from './scale/scheduler-index.js';
export { runPlannedPipeline } from './scale/run-planned.js';
export type { RunPlannedOptions, RunPlannedResult } from './scale/run-planned.js';
// The scale-out queue (BullMQ on the user's Redis; optional peers bullmq and ioredis)
export { enqueuePlan, queueStatus, resumePlan } from './queue/plan-queue.js';
export type { EnqueuePlanOptions, EnqueueResult, QueueStatus, ResumeResult } from './queue/plan-queue.js';
export { runQueueWorker } from './queue/queue-worker.js';
export type { QueueWorkerOptions, QueueWorkerEvent } from './queue/queue-worker.js';
export { checkRedis, DEFAULT_QUEUE } from './queue/redis-connection.js';
export type { QueueConnectionOptions } from './queue/redis-connection.js';
export type { QueuedPlan, PlanJobData } from './queue/plan-jobs.js';
