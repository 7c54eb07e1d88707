import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TfpipeError, type Example } from '@tfpipe/core';
import { verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { readAll } from '../__fixtures__/read-all.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalizePlan } from './finalize-plan.js';
import { planPipeline } from './plan-pipeline.js';
import { runPipelineConfig } from '../run/run-pipeline-config.js';
import { readPlanFile, writePlanFile } from './plan-file.js';
import { planStatus } from './plan-status.js';
import { workPart } from './work-parts.js';
import { workShard } from './work-shard.js';

let directory: string;

/** Rows whose text holds quoted newlines, doubled quotes and delimiters, so that a cut inside a quote shows. */
function trickyCsv(rows: number): string {
  const lines = Array.from({ length: rows }, (_, index) => {
    const text = index % 3 === 0 ? `"line one\nline ""two"", ${index}\n"` : `plain ${index}`;
    return `${index},${text},${(index % 7) / 2}`;
  });
  return `id,text,score\n${lines.join('\n')}\n`;
}

const ids = (examples: readonly Example[]): number[] =>
  examples.map((example) => Number((example.features.id?.value as bigint[])[0]));

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-plan-'));
  await writeFile(join(directory, 'rows.csv'), trickyCsv(400));
  for (const name of ['pipeline', 'other']) {
    await writeFile(
      join(directory, `${name}.yaml`),
      `source:\n  plugin: csv\n  options: { path: rows.csv }\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}-out }\n`,
    );
  }
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('plan, work, finalize', () => {
  it("cuts a CSV with quoted newlines into ranges whose records are the file's, each once, in order", async () => {
    const plan = await planPipeline('pipeline.yaml', { cwd: directory, shards: 8 });
    expect(plan.units.length).toBeGreaterThan(8);
    expect(plan.units.every((unit) => unit.kind === 'bytes')).toBe(true);
    expect(await finalizePlan(plan).catch((error: unknown) => error)).toMatchObject({
      code: 'SHARD_INCOMPLETE',
      message: expect.stringContaining('indexes 0, 1, 2, 3, 4, 5, 6, 7'),
    });
    const out = join(directory, 'pipeline-out');
    for (const { index } of plan.shards) {
      // Its input read, nothing of the index is committed yet: that is what a lane overlaps.
      const read: boolean[] = [];
      const shard = `data-0000${index}-of-00008.tfrecord`;
      const onInputRead = (): void => {
        read.push(existsSync(join(out, shard)));
      };
      expect((await workShard(plan, index, { onInputRead })).skipped).toBe(false);
      expect(read).toEqual([false]);
      expect(existsSync(join(out, shard))).toBe(true);
    }
    expect((await workShard(plan, 3)).skipped).toBe(true);
    const finalized = await finalizePlan(plan);
    expect(finalized.shards).toEqual(
      Array.from({ length: 8 }, (_, index) => `data-0000${index}-of-00008.tfrecord`),
    );
    const names = (await readdir(out)).filter((name) => !name.startsWith('.'));
    expect(names.sort()).toEqual([...finalized.shards, 'data.manifest.json', 'reader_spec.py'].sort());
    expect((await readdir(out)).filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
    const files = finalized.shards.map((name) => join(out, name));
    expect((await verifyTfrecord(files)).records).toBe(400);
    const examples = await readAll(files);
    expect(ids(examples)).toEqual(Array.from({ length: 400 }, (_, index) => index));
    expect(new TextDecoder().decode((examples[3]!.features.text?.value as Uint8Array[])[0])).toBe(
      'line one\nline "two", 3\n',
    );
    const manifest = JSON.parse(await readFile(join(out, 'data.manifest.json'), 'utf8'));
    expect(manifest.records).toBe(400);
    expect(manifest.shards).toHaveLength(8);
    expect(await planStatus(plan)).toEqual({ done: [0, 1, 2, 3, 4, 5, 6, 7], running: [], missing: [] });
    // Finalize again: the same files.
    expect(await finalizePlan(plan)).toEqual(finalized);
    await expect(planPipeline('pipeline.yaml', { cwd: directory, shards: 8 })).rejects.toMatchObject({
      code: 'OUTPUT_EXISTS',
    });
  });

  it("reports a bad cell in a file's third range at its line and row in the whole file", async () => {
    // Quoted newlines, blank lines (skipped, not rows) and CRLF endings before the bad row.
    const lines = ['id,text,score'];
    for (let index = 0; index < 300; index++) {
      const id = index === 250 ? 'not-a-number' : String(index);
      if (index % 3 === 0) lines.push(`${id},"two\nlines ${index}",1.5`);
      else if (index % 7 === 0) lines.push(`${id},crlf ${index},2.5\r`);
      else lines.push(`${id},plain ${index},3`);
      if (index % 10 === 0) lines.push('');
    }
    const text = `${lines.join('\n')}\n`;
    await writeFile(join(directory, 'bad.csv'), text);
    const before = text.slice(0, text.indexOf('not-a-number'));
    const expected = { line: before.split('\n').length, row: 250 };
    const config = (out: string) => ({
      source: {
        plugin: 'csv',
        options: { path: join(directory, 'bad.csv'), schema: { id: 'int64', text: 'bytes', score: 'float' } },
      },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, out) } },
    });
    // The whole file in one run says where the cell is.
    const single = await runPipelineConfig(config('bad-single')).catch((error: unknown) => error);
    expect(single).toMatchObject({ position: { file: join(directory, 'bad.csv'), ...expected } });
    const plan = await planPipeline(config('bad-planned'), { shards: 4, unitBytes: 800 });
    const third = plan.units.findIndex(
      (unit) => unit.kind === 'bytes' && unit.start <= before.length && before.length < unit.end,
    );
    expect(third).toBeGreaterThanOrEqual(2);
    const index = plan.shards.findIndex((shard) => shard.units.includes(third));
    const error = await workShard(plan, index).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: (single as TfpipeError).code,
      position: { file: join(directory, 'bad.csv'), ...expected },
    });
    // The same unit as a part of its index (run --workers): the same error, and its staging directory gone.
    const part = await workPart(plan, index, [third]).catch((caught: unknown) => caught);
    expect(part).toMatchObject({
      code: (single as TfpipeError).code,
      position: { file: join(directory, 'bad.csv'), ...expected },
    });
    expect((await readdir(plan.directory)).filter((name) => name.includes('-part'))).toEqual([]);
  });

  it('refuses a hand-edited plan, another planVersion, a changed input and an index out of range', async () => {
    const plan = await planPipeline('other.yaml', { cwd: directory, shards: 2 });
    const file = join(directory, 'plan.json');
    await writePlanFile(plan, file);
    expect((await readPlanFile(file)).checksum).toBe(plan.checksum);
    await writeFile(file, JSON.stringify({ ...plan, shardCount: 3 }));
    await expect(readPlanFile(file)).rejects.toMatchObject({
      code: 'PLAN_INVALID',
      message: expect.stringContaining('changed'),
    });
    await writeFile(file, JSON.stringify({ ...plan, planVersion: 2 }));
    await expect(readPlanFile(file)).rejects.toMatchObject({
      code: 'PLAN_INVALID',
      message: expect.stringContaining('planVersion 2'),
    });
    await expect(workShard(plan, 2)).rejects.toMatchObject({ code: 'PLAN_INDEX' });
    const later = new Date(Date.now() + 60_000);
    await utimes(join(directory, 'rows.csv'), later, later);
    const error = await workShard(plan, 0).catch((caught: unknown) => caught);
    expect(TfpipeError.is(error) && error.code).toBe('INPUT_CHANGED');
    expect((error as TfpipeError).position.file).toBe(join(directory, 'rows.csv'));
  });

  it('refuses what a plan cannot keep: take, a count sample, a single-file sink', async () => {
    const base = {
      source: { plugin: 'csv', options: { path: join(directory, 'rows.csv') } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, 'refused') } },
    };
    await expect(planPipeline({ ...base, transforms: [{ take: 5 }] })).rejects.toMatchObject({
      code: 'PLAN_INVALID',
      position: { field: 'transforms[0].take' },
    });
    await expect(
      planPipeline({ ...base, transforms: [{ sample: { count: 5, seed: 1 } }] }),
    ).rejects.toMatchObject({ code: 'PLAN_INVALID', position: { field: 'transforms[0].sample.count' } });
    await expect(
      planPipeline({
        ...base,
        sink: { plugin: 'tfrecord', options: { path: join(directory, 'one.tfrecord') } },
      }),
    ).rejects.toMatchObject({ code: 'PLAN_INVALID', position: { field: 'sink.options.path' } });
  });
});
