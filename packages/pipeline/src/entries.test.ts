// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as entry from '@tfpipe/pipeline';
import * as expressionEntry from '@tfpipe/pipeline/expression';
import * as runEntry from '@tfpipe/pipeline/run';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/pipeline', () => {
  test('@tfpipe/pipeline', async () => {
    expect(await exportSurface(packageDirectory, '.', entry)).toMatchInlineSnapshot(`
      [
        "ColumnSplitOptions: type",
        "CompiledTransform: type",
        "DEFAULT_QUEUE: string",
        "DryRunOptions: type",
        "EnqueuePlanOptions: type",
        "EnqueueResult: type",
        "ExpressionLiteral: type",
        "ExpressionNode: type",
        "ExternalShuffleOptions: type",
        "FinalizeResult: type",
        "HashSplitOptions: type",
        "JsonLinesSourceOptions: type",
        "LoadedPipeline: type",
        "MarkedFile: type",
        "PIPELINE_SCHEMA_URL: string",
        "PLAN_VERSION: number",
        "PLUGIN_ALIASES: object",
        "ParsePipelineConfigOptions: type",
        "PipelineConfig: type",
        "PipelineInput: type",
        "PipelineResult: type",
        "PlanInput: type",
        "PlanJobData: type",
        "PlanPipelineOptions: type",
        "PlanShard: type",
        "PlanStatus: type",
        "PlanUnit: type",
        "PluginReference: type",
        "QueueConnectionOptions: type",
        "QueueStatus: type",
        "QueueWorkerEvent: type",
        "QueueWorkerOptions: type",
        "QueuedPlan: type",
        "ReaderSpecFormat: type",
        "ResumeResult: type",
        "RouteRowsOptions: type",
        "RunPipelineConfigOptions: type",
        "RunPipelineOptions: type",
        "RunPlannedOptions: type",
        "RunPlannedResult: type",
        "SCHEDULER_INDEX_VARIABLES: object",
        "ScalePlan: type",
        "ShardMarker: type",
        "ShuffleConfig: type",
        "SplitAssigner: type",
        "SplitConfig: type",
        "SplitOptions: type",
        "TransformConfig: type",
        "WorkShardOptions: type",
        "WorkShardResult: type",
        "WrittenSplit: type",
        "chainWritable: function",
        "checkPlanInputs: function",
        "checkRedis: function",
        "definePipelineConfig: function",
        "dryRun: function",
        "enqueuePlan: function",
        "externalShuffle: function",
        "filterWhere: function",
        "finalizePlan: function",
        "jsonLinesPlugin: object",
        "jsonLinesSource: function",
        "loadPipeline: function",
        "loadPipelineFile: function",
        "parsePipelineConfig: function",
        "parseRowExpression: function",
        "pipelineJsonSchema: function",
        "planPipeline: function",
        "planStatus: function",
        "queueStatus: function",
        "readPlanFile: function",
        "resumePlan: function",
        "routeRows: function",
        "rowExpression: function",
        "runPipeline: function",
        "runPipelineConfig: function",
        "runPlannedPipeline: function",
        "runQueueWorker: function",
        "schedulerIndex: function",
        "splitAssigner: function",
        "tfdsDatasetInfo: function",
        "tfdsFeatures: function",
        "workShard: function",
        "writePlanFile: function",
      ]
    `);
  });

  test('@tfpipe/pipeline/run', async () => {
    expect(await exportSurface(packageDirectory, './run', runEntry)).toMatchInlineSnapshot(`
      [
        "CompiledTransform: type",
        "LoadedPipeline: type",
        "PipelineConfig: type",
        "PipelineInput: type",
        "PipelineResult: type",
        "RunPipelineOptions: type",
        "loadPipeline: function",
        "loadPipelineFile: function",
        "runPipeline: function",
      ]
    `);
  });

  test('@tfpipe/pipeline/expression', async () => {
    expect(await exportSurface(packageDirectory, './expression', expressionEntry)).toMatchInlineSnapshot(`
      [
        "ExpressionLiteral: type",
        "ExpressionNode: type",
        "parseRowExpression: function",
        "rowExpression: function",
      ]
    `);
  });
});
