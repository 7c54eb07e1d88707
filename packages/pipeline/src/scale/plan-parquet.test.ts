import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAll } from '../__fixtures__/read-all.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parquetCorpusFile } from '../../../../test-support/corpus.js';
import { runPipelineConfig } from '../run/run-pipeline-config.js';
import { runPlannedPipeline } from './run-planned.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-plan-parquet-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

it("plans a Parquet file by row group: the shards in order hold the single run's records, in order", async () => {
  // Five row groups of ten rows each.
  const path = parquetCorpusFile('floating_orders_nan_count.parquet');
  const config = (out: string) => ({
    source: { plugin: 'parquet', options: { path } },
    sink: { plugin: 'tfrecord', options: { directory: join(directory, out) } },
  });
  const planned = await runPlannedPipeline(config('planned'), { shards: 3 });
  expect(planned.plan.units).toEqual(
    [0, 1, 2, 3, 4].map((rowGroup) => ({ input: 0, kind: 'rowGroup', rowGroup })),
  );
  expect(planned.plan.shards.map((shard) => shard.units)).toEqual([[0], [1, 2], [3, 4]]);
  expect(planned.records).toBe(50);
  const single = await runPipelineConfig(config('single'));
  const plannedExamples = await readAll(planned.shards.map((name) => join(directory, 'planned', name)));
  const singleExamples = await readAll(single.summary.shards.map((shard) => shard.path));
  expect(plannedExamples).toHaveLength(50);
  expect(plannedExamples).toEqual(singleExamples);
});
