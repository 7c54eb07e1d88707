import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestImages } from '../../../../test-support/test-images.js';
import { runPipelineConfig } from '../run/run-pipeline-config.js';
import { finalizePlan } from './finalize-plan.js';
import { planPipeline } from './plan-pipeline.js';
import type { ScalePlan } from './plan-types.js';
import { handOutTasks, runPlannedPipeline } from './run-planned.js';
import { workShard } from './work-shard.js';

const workerScript = fileURLToPath(new URL('../../dist/work-child.js', import.meta.url));
let directory: string;

const ROWS = 2400;
/** Rows of the wrong length (CSV_ROW_LENGTH), spread so that they fall in several units and indexes. */
const BAD_ROWS = [2, 3, 610, 1190, 1800, 2399];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-planned-skips-'));
  const lines = ['id,text'];
  for (let id = 0; id < ROWS; id++) {
    // Quoted newlines, so that a row's line is not its row number plus one.
    const text = id % 5 === 0 ? `"two\nlines ${id}"` : `plain ${id}`;
    // A bad row has a cell too many, or too few.
    const bad = id % 2 === 0 ? `${id},${text},extra` : `${id}`;
    lines.push(BAD_ROWS.includes(id) ? bad : `${id},${text}`);
  }
  await writeFile(join(directory, 'rows.csv'), `${lines.join('\n')}\n`);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A skipped error as the reports give it, for comparing runs. */
type Skipped = { code: string; message: string; position: object };

/** plan + work on every index + finalize, in this process. */
async function planWorkFinalize(config: object, shards: number) {
  const plan = await planPipeline(config as never, { shards });
  for (const { index } of plan.shards) await workShard(plan, index);
  return { plan, ...(await finalizePlan(plan)) };
}

/** The distinct indexes whose units hold the given CSV data rows. */
function indexesOf(plan: ScalePlan, rows: readonly number[]): Set<number> {
  const unitOf = (row: number): number => {
    let found = -1;
    plan.units.forEach((unit, index) => {
      if (unit.kind === 'bytes' && unit.row <= row) found = index;
    });
    return found;
  };
  return new Set(rows.map((row) => plan.shards.findIndex((shard) => shard.units.includes(unitOf(row)))));
}

describe('planned runs keep every unit’s skip report', () => {
  it('reports the same skipped CSV rows, at the same positions, as a single run', async () => {
    const config = (out: string) => ({
      source: { plugin: 'csv', options: { path: join(directory, 'rows.csv') } },
      onError: 'skip',
      sink: { plugin: 'tfrecord', options: { directory: join(directory, out), shards: 4 } },
    });
    const single = await runPipelineConfig(config('single') as never);
    const expected: Skipped[] = single.summary.skippedErrors.map((error) => error.toJSON());
    expect(single.summary.skipped).toBe(BAD_ROWS.length);
    expect(expected.map((error) => error.code)).toEqual(BAD_ROWS.map(() => 'CSV_ROW_LENGTH'));
    expect(expected.map((error) => (error.position as { row: number }).row)).toEqual(BAD_ROWS);

    const one = await runPlannedPipeline(config('one') as never, { workers: 1 });
    const two = await runPlannedPipeline(config('two') as never, { workers: 2, workerScript });
    const steps = await planWorkFinalize(config('steps'), 4);
    // The bad rows lie in at least three indexes, and some in the parts the lanes cut.
    expect(indexesOf(steps.plan, BAD_ROWS).size).toBeGreaterThanOrEqual(3);
    expect(handOutTasks(two.plan, 2).some((task) => task.units !== undefined)).toBe(true);
    for (const [name, result] of Object.entries({ one, two, steps })) {
      expect(result.skipped, name).toBe(BAD_ROWS.length);
      expect(result.skippedErrors, name).toEqual(expected);
      expect(result.records, name).toBe(ROWS - BAD_ROWS.length);
    }
  }, 120_000);

  it('reports the same skipped images, by record index in the whole input, as a single run', async () => {
    const names = Array.from(
      { length: 24 },
      (_, id) => `pics/${id % 2 === 0 ? 'cat' : 'dog'}/${String(id).padStart(2, '0')}.png`,
    );
    await writeTestImages(directory, names);
    // Three images that do not decode, in three different indexes of the planned runs.
    for (const id of [2, 17, 20]) await writeFile(join(directory, names[id]!), 'not a png');
    const config = (out: string) => ({
      source: {
        plugin: 'images',
        options: { folder: join(directory, 'pics'), resize: { width: 8, height: 8 }, format: 'png' },
      },
      onError: 'skip',
      sink: { plugin: 'tfrecord', options: { directory: join(directory, out), shards: 3 } },
    });
    const single = await runPipelineConfig(config('images-single') as never);
    const expected: Skipped[] = single.summary.skippedErrors.map((error) => error.toJSON());
    expect(single.summary.skipped).toBe(3);
    const two = await runPlannedPipeline(config('images-two') as never, { workers: 2, workerScript });
    const steps = await planWorkFinalize(config('images-steps'), 3);
    for (const [name, result] of Object.entries({ two, steps })) {
      expect(result.skipped, name).toBe(3);
      expect(result.skippedErrors, name).toEqual(expected);
    }
  }, 120_000);
});
