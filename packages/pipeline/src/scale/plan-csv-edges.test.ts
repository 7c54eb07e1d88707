import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TfpipeError } from '@tfpipe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../__fixtures__/read-all.js';
import { runPipelineConfig } from '../run/run-pipeline-config.js';
import { finalizePlan } from './finalize-plan.js';
import { planPipeline } from './plan-pipeline.js';
import { workShard } from './work-shard.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-plan-csv-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A pipeline reading `file` (schema inferred) into `out` under the test directory. */
const config = (file: string, out: string, options: Record<string, unknown> = {}) => ({
  source: { plugin: 'csv', options: { path: join(directory, file), ...options } },
  sink: { plugin: 'tfrecord', options: { directory: join(directory, out) } },
});

/** Every record of an output directory's shards, in shard then record order. */
async function recordsOf(out: string): Promise<unknown[]> {
  const names = (await readdir(join(directory, out))).filter((name) => name.includes('-of-')).sort();
  return readAll(names.map((name) => join(directory, out, name)));
}

/** Plans `file` into 4 indexes of small ranges, works them all and finalizes. */
async function planned(file: string, out: string, options: Record<string, unknown> = {}): Promise<unknown[]> {
  const plan = await planPipeline(config(file, out, options), { shards: 4, unitBytes: 200 });
  expect(plan.units.length).toBeGreaterThan(4);
  for (const { index } of plan.shards) await workShard(plan, index);
  await finalizePlan(plan);
  return recordsOf(out);
}

describe('planned CSV ranges read as one process reads the file', () => {
  it('finds the header after blank lines (LF and CRLF) before it, as the reader skips them', async () => {
    const rows = Array.from({ length: 120 }, (_, index) => `${index},name ${index},${index / 4}`);
    await writeFile(join(directory, 'blank.csv'), `\n\r\n\nid,name,score\n${rows.join('\n')}\n`);
    await runPipelineConfig(config('blank.csv', 'blank-single'));
    const single = await recordsOf('blank-single');
    expect(single).toHaveLength(120);
    expect(await planned('blank.csv', 'blank-planned')).toEqual(single);
  });

  it('takes a blank first line as the header when blank lines are not skipped, as the reader does', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => `${index}`);
    await writeFile(join(directory, 'kept.csv'), `\n${rows.join('\n')}\n`);
    const options = { skipEmptyLines: false, schema: { '': 'int64' } };
    const single = await runPipelineConfig(config('kept.csv', 'kept-single', options)).then(
      () => recordsOf('kept-single'),
      (error: unknown) => error,
    );
    const plan = await planned('kept.csv', 'kept-planned', options).catch((error: unknown) => error);
    expect(plan).toEqual(single);
  });

  it('reports invalid UTF-8 in a later range at its byte offset and line in the whole file', async () => {
    // Past the reads schema inference makes (a 10-row sample in 64 KiB chunks), in a later range.
    const rows = Array.from({ length: 12_000 }, (_, index) =>
      index % 5 === 0 ? `${index},"two\nlines",1` : `${index},plain ${index},2`,
    );
    const text = `id,text,score\n${rows.join('\n')}\n`;
    const badAt = text.indexOf('plain 10001');
    const bytes = Buffer.concat([
      Buffer.from(text.slice(0, badAt)),
      Buffer.from([0xff]),
      Buffer.from(text.slice(badAt + 1)),
    ]);
    await writeFile(join(directory, 'utf8.csv'), bytes);
    const expected = {
      file: join(directory, 'utf8.csv'),
      byteOffset: badAt,
      line: text.slice(0, badAt).split('\n').length,
    };
    const schema = { schema: { id: 'int64', text: 'bytes', score: 'float' }, inferRows: 10 };
    const single = await runPipelineConfig(config('utf8.csv', 'utf8-single', schema)).catch(
      (error: unknown) => error,
    );
    expect(single).toMatchObject({ code: 'CSV_ENCODING', position: expected });
    const plan = await planPipeline(config('utf8.csv', 'utf8-planned', schema), {
      shards: 4,
      unitBytes: 20_000,
    });
    const unit = plan.units.findIndex(
      (item) => item.kind === 'bytes' && item.start <= badAt && badAt < item.end,
    );
    expect(unit).toBeGreaterThanOrEqual(2);
    const index = plan.shards.findIndex((shard) => shard.units.includes(unit));
    const error = await workShard(plan, index).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CSV_ENCODING', position: expected });
    expect((error as TfpipeError).message).toBe((single as TfpipeError).message);
  });
});
