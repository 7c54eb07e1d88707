import { readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { buildExamples, encodeExample, positionOf, reportOf, run } from '@tfpipe/core';
import type { TfpipeError } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { describe, expect, test } from 'vitest';
import { collect, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvFeatures, csvToExamples } from './csv-features.js';
import { csvSource } from './csv-source.js';
import type { CsvRow } from './csv-source.js';

/** Rows whose text spans several 64 KiB read chunks, with quoted newlines moving the lines. */
function bigCsv(rows: number): string {
  const lines = Array.from({ length: rows }, (_, index) =>
    index % 97 === 0 ? `${index},"two\nlines ${index}"` : `${index},"row, ${index}"`,
  );
  return `id,text\n${lines.join('\n')}\n`;
}

async function openDescriptors(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

function flat<T>(batches: readonly (readonly T[])[]): T[] {
  return batches.flat<readonly (readonly T[])[]>();
}

describe('csvSource with batchSize', () => {
  test('the same rows with the same positions as one row per chunk, in full batches', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'big.csv', bigCsv(20_000));
      const single = await collect(csvSource({ path: file }));
      for (const size of [1, 7, 1000, 50_000]) {
        const batches = await collect(csvSource({ path: file, batchSize: size }));
        expect(batches.every((batch) => Array.isArray(batch))).toBe(true);
        // Every batch is full except the last: batches span the reader's file chunks.
        expect(batches.slice(0, -1).every((batch) => batch.length === size)).toBe(true);
        const rows = flat(batches);
        expect(rows.length).toBe(20_000);
        expect(rows.map((row) => ({ ...row }))).toEqual(single.map((row) => ({ ...row })));
        expect(rows.map((row) => positionOf(row))).toEqual(single.map((row) => positionOf(row)));
      }
      expect(positionOf(single[97]!)).toEqual({ file, line: 100, row: 97 });
      expect(positionOf(single[98]!)).toEqual({ file, line: 102, row: 98 });
    });
  });

  test('positions stay invisible to keys, JSON and spreads', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'a.csv', 'a,b\n1,2\n');
      const [[row]] = (await collect(csvSource({ path: file, batchSize: 4 }))) as [[CsvRow]];
      expect(Object.keys(row)).toEqual(['a', 'b']);
      expect(JSON.stringify(row)).toBe('{"a":"1","b":"2"}');
      expect(positionOf({ ...row })).toBeUndefined();
      expect(positionOf(row)).toEqual({ file, line: 2, row: 0 });
    });
  });

  test("onError 'skip' drops single bad rows inside a batch; records counts rows", async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'bad.csv', 'a,b\n1,x\n2\n3,y\n4,z,extra\n5,w\n');
      const skipped: TfpipeError[] = [];
      const stream = csvSource({
        path: file,
        batchSize: 10,
        onError: 'skip',
        onSkip: (error) => skipped.push(error),
      });
      const batches = await collect(stream);
      expect(batches.map((batch) => batch.map((row) => row.a))).toEqual([['1', '3', '5']]);
      expect(batches[0]!.map((row) => positionOf(row)?.line)).toEqual([2, 4, 6]);
      expect(skipped.map((error) => [error.code, error.position.line, error.position.row])).toEqual([
        ['CSV_ROW_LENGTH', 3, 1],
        ['CSV_ROW_LENGTH', 5, 3],
      ]);
      const report = reportOf(stream)!;
      expect(report.records).toBe(3);
      expect(report.skipped).toBe(2);
    });
  });

  test('backpressure: one batch read reads about one file chunk; cancel mid-file closes the file', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'big.csv', bigCsv(200_000));
      const before = await openDescriptors();
      const stream = csvSource({ path: file, batchSize: 100 });
      const reader = stream.getReader();
      const first = await reader.read();
      expect(first.value?.length).toBe(100);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reportOf(stream)!.bytes).toBeLessThanOrEqual(2 * 128 * 1024);
      expect(await openDescriptors()).toBe(before + 1);
      await reader.cancel();
      expect(await openDescriptors()).toBe(before);
    });
  });

  test('a bad batchSize fails at once with INVALID_OPTION', () => {
    for (const batchSize of [0, -1, 1.5, Number.NaN]) {
      const message = `csvSource option batchSize: expected a whole number ≥ 1, got ${JSON.stringify(batchSize)}`;
      expect(() => csvSource({ path: 'x.csv', batchSize })).toThrow(message);
      expect(() => csvFeatures({ path: 'x.csv', batchSize })).toThrow(message);
    }
  });

  test('csvSource batches → buildExamples.batches → tfrecordSink writes the bytes of the unbatched run', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'big.csv', bigCsv(5000));
      const spec = { id: 'int64', text: 'bytes' } as const;
      const single = path.join(directory, 'single.tfrecord');
      const batched = path.join(directory, 'batched.tfrecord');
      await run(csvSource({ path: file }), buildExamples(spec), tfrecordSink({ path: single }));
      const summary = await run(
        csvSource({ path: file, batchSize: 256 }),
        buildExamples.batches(spec),
        tfrecordSink({ path: batched }),
      );
      expect(summary.recordsRead).toBe(5000);
      expect(summary.recordsWritten).toBe(5000);
      expect(Buffer.compare(await readFile(batched), await readFile(single))).toBe(0);
    });
  });
});

describe('csvFeatures and csvToExamples with batchSize', () => {
  test('the same feature rows and Examples, positions included, and skip inside a batch', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'typed.csv', 'id,x\n1,1.5\n2,oops\n3,2.5\n4,3\n');
      const options = { path: file, schema: { id: 'int64', x: 'float' }, onError: 'skip' } as const;
      const single = await collect(csvFeatures(options));
      const batches = await collect(csvFeatures({ ...options, batchSize: 2 }));
      expect(batches.map((batch) => batch.length)).toEqual([2, 1]);
      expect(flat(batches)).toEqual(single);
      expect(flat(batches).map((row) => positionOf(row))).toEqual(single.map((row) => positionOf(row)));
      expect(single.map((row) => positionOf(row)?.line)).toEqual([2, 4, 5]);
      const stream = csvToExamples({ ...options, batchSize: 2 });
      const examples = flat(await collect(stream));
      // The same wire bytes as the feature rows (floats are float32 once encoded).
      expect(examples.map((example) => encodeExample(example))).toEqual(
        single.map((row) => encodeExample({ features: { ...row } })),
      );
      expect(examples.map((example) => positionOf(example))).toEqual(single.map((row) => positionOf(row)));
      expect(reportOf(stream)!.records).toBe(3);
      expect(reportOf(stream)!.skipped).toBe(1);
    });
  });
});
