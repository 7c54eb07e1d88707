import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { batch, buildExamples, bytes, example, float, int64, run, type Example } from '@tfpipe/core';
import { fromArray } from '@tfpipe/core/testing';
import type { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { collect, tempDir, writeAll } from './__fixtures__/helpers.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';
import { createTfrecordWriter } from './tfrecord-writer.js';

function examples(count: number): Example[] {
  return Array.from({ length: count }, (_, index) =>
    example({ id: int64(index), score: float(index / 3), name: bytes(`row ${index}`) }),
  );
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let offset = 0; offset < items.length; offset += size) out.push(items.slice(offset, offset + size));
  return out;
}

describe('batches in tfrecordSink and createTfrecordWriter', () => {
  it('writes the same bytes for batches as for single records, with a buffer that flushes mid-batch', async () => {
    const directory = await tempDir();
    const records = examples(5000);
    const single = join(directory, 'single.tfrecord');
    const batched = join(directory, 'batched.tfrecord');
    const imperative = join(directory, 'imperative.tfrecord');
    await writeAll(tfrecordSink({ path: single, bufferBytes: 65536 }), records);
    await writeAll(tfrecordSink({ path: batched, bufferBytes: 65536 }), chunks(records, 700));
    const writer = await createTfrecordWriter({ path: imperative, bufferBytes: 65536 });
    for (const chunk of chunks(records, 1300)) await writer.write(chunk);
    const report = await writer.close();
    expect(report.records).toBe(5000);
    const expected = await readFile(single);
    expect(Buffer.compare(await readFile(batched), expected)).toBe(0);
    expect(Buffer.compare(await readFile(imperative), expected)).toBe(0);
  });

  it('skips a bad record inside a batch and keeps its neighbours, counting record indexes', async () => {
    const directory = await tempDir();
    const path = join(directory, 'skip.tfrecord');
    const skipped: TfpipeError[] = [];
    const good = examples(3);
    const bad = { features: { id: { kind: 'int64', value: [1] } } } as unknown as Example;
    await writeAll(tfrecordSink({ path, onError: 'skip', onSkip: (error) => skipped.push(error) }), [
      [good[0]!, bad, good[1]!],
      [good[2]!],
    ]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.code).toBe('FEATURE_TYPE');
    expect(skipped[0]!.position.recordIndex).toBe(1);
    expect(await collect(tfrecordSource({ paths: path }))).toHaveLength(3);
  });

  it('fails the whole write on a bad record in a batch under onError fail, leaving no file', async () => {
    const directory = await tempDir();
    const path = join(directory, 'fail.tfrecord');
    const bad = { features: { id: { kind: 'float', value: ['x'] } } } as unknown as Example;
    await expect(writeAll(tfrecordSink({ path }), [[...examples(2), bad]])).rejects.toMatchObject({
      code: 'FEATURE_TYPE',
    });
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('run() counts the records inside batches, and buildExamples skips rows inside a batch', async () => {
    const directory = await tempDir();
    const path = join(directory, 'run.tfrecord');
    const rows = Array.from({ length: 10 }, (_, index) => ({ id: index === 4 ? 'four' : String(index) }));
    const summary = await run(
      fromArray(rows),
      batch<{ id: string }>(3),
      buildExamples.batches({ id: 'int64' }, { onError: 'skip' }),
      tfrecordSink({ path }),
    );
    expect(summary.recordsRead).toBe(10);
    expect(summary.recordsWritten).toBe(9);
    expect(summary.skipped).toBe(1);
    expect(summary.shards[0]?.records).toBe(9);
  });
});
