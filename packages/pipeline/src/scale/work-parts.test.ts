import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planPipeline } from './plan-pipeline.js';
import type { ScalePlan } from './plan-types.js';
import { readMarker } from './shard-marker.js';
import { PartsJoin, workPart, type WrittenPart } from './work-parts.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-parts-join-'));
  const lines = Array.from({ length: 600 }, (_, id) => `${id},row ${id} ${'x'.repeat(id % 40)}`);
  await writeFile(join(directory, 'rows.csv'), `id,text\n${lines.join('\n')}\n`);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A one-index plan of several CSV ranges, and each range written as a part. */
async function partsOf(out: string): Promise<{ plan: ScalePlan; parts: WrittenPart[] }> {
  const plan = await planPipeline(
    {
      source: { plugin: 'csv', options: { path: join(directory, 'rows.csv') } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, out) } },
    },
    { shards: 1, unitBytes: 3000 },
  );
  const parts: WrittenPart[] = [];
  for (const unit of plan.shards[0]!.units) parts.push(await workPart(plan, 0, [unit]));
  return { plan, parts };
}

/** The bytes of each part's one file, in order. */
const partBytes = (parts: readonly WrittenPart[]): Promise<Buffer[]> =>
  Promise.all(parts.map((part) => readFile(join(part.staging, part.files[0]!.written.name))));

describe('PartsJoin', () => {
  it('appends each part once the parts before it are in, and commits their bytes in unit order', async () => {
    const { plan, parts } = await partsOf('joined');
    expect(parts.length).toBeGreaterThanOrEqual(4);
    const expected = Buffer.concat(await partBytes(parts));
    const join0 = new PartsJoin(plan, 0, parts.length);
    // The last parts first: none can be appended before the first is in.
    for (let position = parts.length - 1; position >= 2; position--) join0.add(position, parts[position]!);
    await new Promise((resolve) => setImmediate(resolve));
    expect(parts.every((part) => existsSync(part.staging))).toBe(true);
    // The first part in: it is appended (its staging directory goes) while the second is still missing.
    join0.add(0, parts[0]!);
    while (existsSync(parts[0]!.staging)) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(parts[2]!.staging)).toBe(true);
    join0.add(1, parts[1]!);
    const marker = await join0.commit();
    const name = 'data-00000-of-00001.tfrecord';
    const written = await readFile(join(plan.directory, name));
    expect(written.equals(expected)).toBe(true);
    expect(marker.files).toMatchObject([
      {
        name,
        records: 600,
        bytes: expected.length,
        sha256: createHash('sha256').update(expected).digest('hex'),
      },
    ]);
    expect(marker.stats.data?.records).toBe(600);
    expect(await readMarker(plan, 0)).toEqual(marker);
    expect(parts.some((part) => existsSync(part.staging))).toBe(false);
    expect((await readdir(plan.directory)).filter((entry) => entry.includes('tfpipe-tmp'))).toEqual([]);
  }, 60_000);

  it('refuses to commit before every part is in, and removes the joined file and the parts it was given', async () => {
    const { plan, parts } = await partsOf('early');
    const early = new PartsJoin(plan, 0, parts.length);
    early.add(0, parts[0]!);
    early.add(2, parts[2]!);
    await expect(early.commit()).rejects.toMatchObject({ code: 'INTERNAL' });
    // The parts it was given go with the joined file; the others are still their writer's.
    expect(parts.map((part) => existsSync(part.staging))).toEqual(
      parts.map((_, position) => position !== 0 && position !== 2),
    );
    const left = (await readdir(plan.directory)).filter((entry) => entry.includes('tfpipe-tmp'));
    expect(left.filter((entry) => !entry.includes('-part'))).toEqual([]);
    expect(existsSync(join(plan.directory, 'data-00000-of-00001.tfrecord'))).toBe(false);
    expect(await readMarker(plan, 0)).toBeUndefined();
    for (const part of parts) await rm(part.staging, { recursive: true, force: true });
  }, 60_000);
});
