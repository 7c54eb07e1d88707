import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlanUnit, ScalePlan } from './plan-types.js';
import { handOutOrder, runPlannedPipeline } from './run-planned.js';

/** A plan of the given units dealt to shards as listed (only what handOutOrder reads). */
function planOf(units: PlanUnit[], shards: number[][]): ScalePlan {
  return { units, shards: shards.map((unitIndexes, index) => ({ index, units: unitIndexes })) } as never;
}

describe('handOutOrder', () => {
  it('hands out the indexes holding the most row groups first, ties in index order', () => {
    // 10 row groups dealt to 8 indexes as planPipeline deals them: indexes 3 and 7 hold two.
    const units = Array.from(
      { length: 10 },
      (_, rowGroup) => ({ input: 0, kind: 'rowGroup', rowGroup }) as const,
    );
    const shards = Array.from({ length: 8 }, (_, index) =>
      Array.from(
        { length: Math.floor(((index + 1) * 10) / 8) - Math.floor((index * 10) / 8) },
        (_, offset) => Math.floor((index * 10) / 8) + offset,
      ),
    );
    expect(shards[3]).toEqual([3, 4]);
    expect(handOutOrder(planOf(units, shards))).toEqual([3, 7, 0, 1, 2, 4, 5, 6]);
  });

  it('weighs CSV ranges by their bytes, not their count', () => {
    const range = (start: number, end: number): PlanUnit => ({
      input: 0,
      kind: 'bytes',
      start,
      end,
      headerEnd: 10,
      line: 1,
      row: 0,
    });
    const units = [range(10, 100), range(100, 200), range(200, 5000), range(5000, 5100)];
    expect(handOutOrder(planOf(units, [[0, 1], [2], [3]]))).toEqual([1, 0, 2]);
  });
});

/** This process's children running `script` (Linux /proc). */
async function childrenRunning(script: string): Promise<number> {
  let count = 0;
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const [stat, command] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''),
      readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
    ]);
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === process.pid && command.includes(script)) count++;
  }
  return count;
}

describe('runPlannedPipeline', () => {
  it("fails with the plan's error when planning fails, its started workers told to exit", async () => {
    const config = {
      source: { plugin: 'csv', options: { path: '/nonexistent/tfpipe/input.csv' } },
      sink: { plugin: 'tfrecord', options: { directory: '/nonexistent/tfpipe/out' } },
    };
    const workerScript = fileURLToPath(new URL('../../dist/work-child.js', import.meta.url));
    await expect(runPlannedPipeline(config as never, { workers: 3, workerScript })).rejects.toMatchObject({
      code: 'INPUT_NOT_FOUND',
      position: { file: '/nonexistent/tfpipe/input.csv' },
    });
    // The two children it started exit (the test's time limit bounds the wait).
    while ((await childrenRunning(workerScript)) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
