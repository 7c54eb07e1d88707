import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportOf } from '@tfpipe/core';
import { slowSink } from '@tfpipe/core/testing';
import { csvSource } from '@tfpipe/source-csv';
import { tfrecordSource } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRowsCsv } from './__fixtures__/reliability.js';
import { tfpipe } from './__fixtures__/run-cli.js';

// The bounded soak (CI): the full one is `node reliability/soak.mjs` (5M rows, 3000 images).
type Soak = (options: {
  kind: string;
  size: number;
  directory: string;
}) => Promise<{ peak: number; seconds: number }>;
// @ts-expect-error -- a plain .mjs script without types
const soakModule = (await import('../../../reliability/soak.mjs')) as { soak: Soak };
const soak: Soak = (options) => soakModule.soak(options);

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-soak-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const MiB = 2 ** 20;

describe('bounded memory', () => {
  it('peak RSS of `tfpipe convert` does not grow with the input: CSV 100k rows vs 500k rows', async () => {
    const small = await soak({ kind: 'csv', size: 100_000, directory });
    const large = await soak({ kind: 'csv', size: 500_000, directory });
    console.log(
      `csv peak RSS: 100k rows ${(small.peak / MiB).toFixed(0)} MiB, 500k rows ${(large.peak / MiB).toFixed(0)} MiB`,
    );
    // Five times the rows may cost a little (V8 heap sizing), never five times the memory.
    expect(large.peak).toBeLessThan(small.peak * 1.3 + 48 * MiB);
  }, 120_000);

  it('a source behind a slow sink reads only a bounded amount ahead (CSV, TFRecord)', async () => {
    const csv = join(directory, 'ahead.csv');
    await writeRowsCsv(csv, 200_000);
    const source = csvSource({ path: csv });
    const sink = slowSink<unknown>(1);
    const stop = new AbortController();
    const piping = source.pipeTo(sink, { signal: stop.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bytesRead = reportOf(source)?.bytes ?? Infinity;
    stop.abort();
    await piping;
    // ~200 rows written in 300 ms; the source may hold a couple of 128 KiB chunks, not the 6 MB file.
    expect(sink.chunks.length).toBeLessThan(1000);
    expect(bytesRead).toBeLessThan(1 * MiB);

    const out = join(directory, 'ahead');
    expect((await tfpipe(['convert', csv, out, '--quiet'])).code).toBe(0);
    const records = tfrecordSource({ paths: join(out, '*') });
    const slow = slowSink<unknown>(1);
    const stopReading = new AbortController();
    const reading = records.pipeTo(slow, { signal: stopReading.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const recordBytes = reportOf(records)?.bytes ?? Infinity;
    stopReading.abort();
    await reading;
    expect(recordBytes).toBeLessThanOrEqual(2 * MiB);
  }, 60_000);
});
