import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readExamples, readManifest, verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, startCli, writeRowsCsv } from './__fixtures__/reliability.js';
import { tfpipe } from './__fixtures__/run-cli.js';

// SIGKILL a real `tfpipe convert` at seeded random points; RELIABILITY_FULL=1 kills it more often.
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 20_240_808);
const KILLS = FULL ? 40 : 6;
const ROWS = 60_000;
const TEMPORARY = /^\..+\.tfpipe-tmp-\d+-[0-9a-f]+$/;
const SHARD = /^data-\d{5}-of-\d{5}\.tfrecord(\.gz)?$/;

let directory: string;
let csv: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-crash-'));
  csv = join(directory, 'rows.csv');
  await writeRowsCsv(csv, ROWS);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** Every id in the shards of `out`, checked to be 0..ROWS-1 exactly once. */
async function expectComplete(out: string): Promise<void> {
  const names = await readdir(out);
  expect(names.filter((name) => TEMPORARY.test(name))).toEqual([]);
  const shards = names.filter((name) => SHARD.test(name)).map((name) => join(out, name));
  const seen = new Uint8Array(ROWS);
  for await (const record of readExamples(shards)) {
    const id = record.features.id;
    if (id?.kind !== 'int64') throw new Error('id is not int64');
    seen[Number(id.value[0])]! += 1;
  }
  expect(seen.every((count) => count === 1)).toBe(true);
}

/**
 * The rerun's shards hold the baseline's bytes (gunzipped when written with gzip): each id once, as
 * {@link expectComplete} found there, and no temporaries left.
 */
async function expectAsBaseline(out: string, baseline: string, gzip: boolean): Promise<void> {
  const names = await readdir(out);
  expect(names.filter((name) => TEMPORARY.test(name))).toEqual([]);
  const wanted = (await readdir(baseline)).filter((name) => SHARD.test(name)).sort();
  expect(wanted).toHaveLength(4);
  const suffix = gzip ? '.gz' : '';
  expect(names.filter((name) => SHARD.test(name)).sort()).toEqual(wanted.map((name) => name + suffix));
  for (const name of wanted) {
    const bytes = await readFile(join(out, name + suffix));
    const plain = gzip ? gunzipSync(bytes) : bytes;
    expect(plain.equals(await readFile(join(baseline, name))), name).toBe(true);
  }
}

/** What a killed run left: only verified final shards (a full set when the manifest exists) and temporaries. */
async function expectNothingTorn(out: string, shardsWanted: number): Promise<{ temporaries: number }> {
  const names = await readdir(out).catch(() => [] as string[]);
  let temporaries = 0;
  const finals: string[] = [];
  for (const name of names) {
    if (TEMPORARY.test(name)) temporaries++;
    else if (SHARD.test(name)) finals.push(name);
    else expect(['data.manifest.json', 'reader_spec.py']).toContain(name);
  }
  // reader_spec.py is written (atomically) after the shards: it only ever describes a complete set.
  if (names.includes('reader_spec.py')) expect(finals.length).toBe(shardsWanted);
  for (const name of finals) {
    const result = await verifyTfrecord(join(out, name));
    expect(result.errors).toEqual([]);
    // Round-robin over 4 shards: a complete shard holds exactly a quarter of the rows.
    expect(result.records).toBe(ROWS / shardsWanted);
  }
  if (names.includes('data.manifest.json')) {
    const manifest = await readManifest(out);
    expect(manifest?.records).toBe(ROWS);
    expect(finals.length).toBe(shardsWanted);
  }
  return { temporaries };
}

describe('convert under SIGKILL', () => {
  it(`never leaves a torn file under a final name, and a rerun completes (${KILLS} kills, seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    const baseline = join(directory, 'baseline');
    const started = performance.now();
    const clean = await tfpipe(['convert', csv, baseline, '--shards', '4', '--manifest', '--quiet']);
    expect(clean.stderr).toBe('');
    const duration = performance.now() - started;
    await expectComplete(baseline);

    const outcomes: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const out = join(directory, `killed-${kill}`);
      const args = ['convert', csv, out, '--shards', '4', '--manifest', '--quiet'];
      if (kill % 2 === 1) args.push('--compression', 'gzip');
      // Kill anywhere from start-up to just past the baseline's end, so renames get hit too.
      const delay = Math.floor(random() * duration * 1.1);
      const { child, exited } = startCli(args);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      const { signal } = await exited;
      const { temporaries } = await expectNothingTorn(out, 4);
      outcomes.push(`${delay}ms:${signal ?? 'exited'}:${temporaries} tmp`);

      // The rerun removes the dead run's temporaries and writes the full, correct output.
      const rerun = await tfpipe([...args, '--overwrite']);
      expect(rerun.stderr).toBe('');
      expect(rerun.code).toBe(0);
      await expectAsBaseline(out, baseline, kill % 2 === 1);
      await rm(out, { recursive: true, force: true });
    }
    expect(outcomes).toHaveLength(KILLS);
    console.log(`crash points: ${outcomes.join(', ')}`);
  }, 120_000);
});
