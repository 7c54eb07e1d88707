// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as entry from '@tfpipe/pipeline';
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
        "HashSplitOptions: type",
        "JsonLinesSourceOptions: type",
        "LoadedPipeline: type",
        "PIPELINE_SCHEMA_URL: string",
        "PLUGIN_ALIASES: object",
        "ParsePipelineConfigOptions: type",
        "PipelineConfig: type",
        "PipelineInput: type",
        "PipelineResult: type",
        "PlanJobData: type",
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
        "ShuffleConfig: type",
        "SplitAssigner: type",
        "SplitConfig: type",
        "SplitOptions: type",
        "TransformConfig: type",
        "WrittenSplit: type",
        "chainWritable: function",
        "checkRedis: function",
        "definePipelineConfig: function",
        "dryRun: function",
        "enqueuePlan: function",
        "externalShuffle: function",
        "filterWhere: function",
        "jsonLinesPlugin: object",
        "jsonLinesSource: function",
        "loadPipeline: function",
        "loadPipelineFile: function",
        "parsePipelineConfig: function",
        "parseRowExpression: function",
        "pipelineJsonSchema: function",
        "queueStatus: function",
        "resumePlan: function",
        "routeRows: function",
        "rowExpression: function",
        "runPipeline: function",
        "runPipelineConfig: function",
        "runQueueWorker: function",
        "splitAssigner: function",
        "tfdsDatasetInfo: function",
        "tfdsFeatures: function",
      ]
    `);
  });
});
