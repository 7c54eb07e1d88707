import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanUnit, ScalePlan } from './plan-types.js';
import { handOutOrder, handOutTasks, runPlannedPipeline } from './run-planned.js';
import { partsJoinable } from './work-parts.js';
import { laneSourceOptions } from './work-shard.js';

/** A plan of the given units dealt to shards as listed (only what handOutOrder reads). */
function planOf(units: PlanUnit[], shards: number[][], config: object = PLAIN): ScalePlan {
  return {
    units,
    shards: shards.map((unitIndexes, index) => ({ index, units: unitIndexes })),
    pipeline: { config, baseDirectory: '/' },
  } as never;
}

const PLAIN = { source: { plugin: 'csv' }, sink: { plugin: 'tfrecord', options: {} } };

/** A CSV byte range of the given length (only what handOutTasks reads). */
function rangeOf(start: number, end: number): PlanUnit {
  return { input: 0, kind: 'bytes', start, end, headerEnd: 10, line: 1, row: 0 };
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

describe('handOutTasks', () => {
  // 8 indexes of 4 ranges each, index 5 the smallest, then 2, the rest larger and alike.
  const sizes = [100, 100, 90, 100, 100, 80, 100, 100];
  const units: PlanUnit[] = [];
  const shards = sizes.map((size) =>
    Array.from({ length: 4 }, (_, part) => {
      const start = units.length * 1000 + 10;
      units.push(rangeOf(start, start + size + part));
      return units.length - 1;
    }),
  );

  it('cuts the last index of each lane into one part per unit, handed out last, largest first', () => {
    const tasks = handOutTasks(planOf(units, shards), 2);
    expect(tasks.slice(0, 6)).toEqual([0, 1, 3, 4, 6, 7].map((index) => ({ index })));
    // Index 2's units (8 … 11) are larger than index 5's (20 … 23); within each, the last unit is largest.
    expect(tasks.slice(6)).toEqual(
      [11, 10, 9, 8, 23, 22, 21, 20].map((unit) => ({ index: unit < 20 ? 2 : 5, units: [unit] })),
    );
    expect(handOutTasks(planOf(units, shards), 3).filter((task) => task.units !== undefined)).toHaveLength(
      12,
    );
  });

  it('hands out whole indexes only for one lane and for output that cannot be joined', () => {
    const whole = handOutOrder(planOf(units, shards)).map((index) => ({ index }));
    expect(handOutTasks(planOf(units, shards), 1)).toEqual(whole);
    const sink = (options: object) => ({ ...PLAIN, sink: { plugin: 'tfrecord', options } });
    for (const config of [
      sink({ compression: 'gzip' }),
      sink({ suffix: '.tfrecord.gz' }),
      sink({ suffix: '.tfrecord.zz' }),
      sink({ index: true }),
      { ...PLAIN, shuffle: { seed: 3 } },
      { ...PLAIN, transforms: [{ filter: 'id > 3' }, { sample: { fraction: 0.5 } }] },
    ]) {
      expect(partsJoinable(planOf(units, shards, config)), JSON.stringify(config)).toBe(false);
      expect(handOutTasks(planOf(units, shards, config), 2)).toEqual(whole);
    }
    for (const config of [
      sink({ compression: 'none', suffix: '.rec' }),
      { ...PLAIN, transforms: [{ filter: 'id > 3' }] },
    ]) {
      expect(partsJoinable(planOf(units, shards, config)), JSON.stringify(config)).toBe(true);
    }
  });

  it('leaves an index of one unit whole', () => {
    const one = [[0], [1], [2, 3]];
    const ranges = [rangeOf(10, 500), rangeOf(500, 900), rangeOf(900, 1000), rangeOf(1000, 1150)];
    expect(handOutTasks(planOf(ranges, one), 2)).toEqual([
      { index: 0 },
      { index: 1 },
      { index: 2, units: [3] },
      { index: 2, units: [2] },
    ]);
  });
});

describe('laneSourceOptions', () => {
  const images = (options: object) => ({ source: { name: '@tfpipe/source-images' }, sourceOptions: options });
  it("divides an image source's in-flight default among the lanes, unless the pipeline sets it", () => {
    expect(laneSourceOptions(images({ folder: 'a' }) as never, 2, 2)).toEqual({
      folder: 'a',
      concurrency: 2,
    });
    expect(laneSourceOptions(images({}) as never, 3, 2)).toEqual({ concurrency: 1 });
    expect(laneSourceOptions(images({}) as never, 2, 16)).toEqual({ concurrency: 8 });
    expect(laneSourceOptions(images({}) as never, 1, 2)).toEqual({});
    expect(laneSourceOptions(images({ concurrency: 6 }) as never, 2, 2)).toEqual({ concurrency: 6 });
    const csv = { source: { name: '@tfpipe/source-csv' }, sourceOptions: { path: 'a.csv' } };
    expect(laneSourceOptions(csv as never, 2, 2)).toEqual({ path: 'a.csv' });
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

describe('runPlannedPipeline on two processes', () => {
  let directory: string;
  const workerScript = fileURLToPath(new URL('../../dist/work-child.js', import.meta.url));
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'tfpipe-run-planned-'));
    // In every index the first 100 of its 300 rows are filtered out, so that its first range writes
    // no record; a column split whose `test` rows come only in the last index; quoted newlines.
    const lines = ['id,fold,keep,text'];
    for (let id = 0; id < 1200; id++) {
      const fold = id >= 1000 && id % 5 === 0 ? 'test' : 'train';
      const keep = id % 300 >= 100 ? 'yes' : 'no';
      lines.push(`${id},${fold},${keep},${id % 4 === 0 ? `"two\nlines ""${id}"""` : `plain ${id}`}`);
    }
    await writeFile(join(directory, 'rows.csv'), `${lines.join('\n')}\n`);
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const config = (out: string, sinkOptions: object = {}) => ({
    source: { plugin: 'csv', options: { path: join(directory, 'rows.csv') } },
    transforms: [{ filter: "keep == 'yes'" }],
    split: { column: 'fold' },
    sink: { plugin: 'tfrecord', options: { directory: join(directory, out), shards: 4, ...sinkOptions } },
  });

  /** Every file of `out` (hidden ones too), name → bytes. */
  async function filesOf(out: string): Promise<Map<string, Buffer>> {
    const names = (await readdir(join(directory, out))).filter((name) => !name.startsWith('.'));
    const files = new Map<string, Buffer>();
    for (const name of names.sort()) files.set(name, await readFile(join(directory, out, name)));
    return files;
  }

  it('writes the same files, manifests included, as one process when the last indexes run in parts', async () => {
    const one = await runPlannedPipeline(config('one'), { workers: 1 });
    const two = await runPlannedPipeline(config('two'), { workers: 2, workerScript });
    // The parts path ran: the plan's last two indexes were cut into parts.
    expect(handOutTasks(two.plan, 2).filter((task) => task.units !== undefined).length).toBeGreaterThan(2);
    expect(two.records).toBe(800);
    expect(two.records).toBe(one.records);
    const [reference, written] = [await filesOf('one'), await filesOf('two')];
    expect([...written.keys()]).toEqual([...reference.keys()]);
    expect([...written.keys()]).toContain('test.manifest.json');
    for (const [name, bytes] of reference) expect(written.get(name)!.equals(bytes), name).toBe(true);
    // No temporary left: the parts' staging directories went with the join.
    const hidden = (await readdir(join(directory, 'two'))).filter((name) => name.startsWith('.'));
    expect(hidden).toEqual([expect.stringMatching(/^\.tfpipe-plan-/)]);
  }, 120_000);

  it('fails with the bad cell of the last row, no manifest, no part or temporary left', async () => {
    const text = await readFile(join(directory, 'rows.csv'), 'utf8');
    await writeFile(join(directory, 'bad.csv'), text.replace(/\n1199,/, '\nnot-a-number,'));
    const bad = {
      ...config('bad'),
      source: {
        plugin: 'csv',
        options: {
          path: join(directory, 'bad.csv'),
          schema: { id: 'int64', fold: 'bytes', keep: 'bytes', text: 'bytes' },
        },
      },
    };
    const error = await runPlannedPipeline(bad as never, { workers: 2, workerScript }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ position: { file: join(directory, 'bad.csv'), row: 1199 } });
    const names = await readdir(join(directory, 'bad'));
    expect(names.filter((name) => name.endsWith('.manifest.json') || name.includes('tfpipe-tmp'))).toEqual(
      [],
    );
  }, 120_000);

  it("fails naming the temporary directory when the lanes' task directory cannot be made, nothing final-named", async () => {
    const missing = join(directory, 'no-such-tmp');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = missing;
    let error: unknown;
    try {
      error = await runPlannedPipeline(config('no-tmp'), { workers: 2, workerScript }).catch(
        (caught: unknown) => caught,
      );
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(error).toMatchObject({ code: 'OUTPUT_UNWRITABLE', position: { file: missing } });
    expect((await readdir(join(directory, 'no-tmp'))).filter((name) => !name.startsWith('.'))).toEqual([]);
    // The started child was told to exit (the test's time limit bounds the wait).
    while ((await childrenRunning(workerScript)) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }, 120_000);

  it('writes gzip shards whole on two processes, the same bytes as one', async () => {
    const gzip = { compression: 'gzip' };
    await runPlannedPipeline(config('gzip-one', gzip), { workers: 1 });
    const two = await runPlannedPipeline(config('gzip-two', gzip), { workers: 2, workerScript });
    expect(handOutTasks(two.plan, 2).every((task) => task.units === undefined)).toBe(true);
    const [reference, written] = [await filesOf('gzip-one'), await filesOf('gzip-two')];
    expect([...written.keys()]).toEqual([...reference.keys()]);
    for (const [name, bytes] of reference) expect(written.get(name)!.equals(bytes), name).toBe(true);
  }, 120_000);
});
