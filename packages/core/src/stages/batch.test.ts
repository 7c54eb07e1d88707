import { describe, expect, it } from 'vitest';
import { withPosition } from '../contract/plugin-contract.js';
import type { TfpipeError } from '../errors/tfpipe-error.js';
import type { Example } from '../model/example.js';
import { collect } from '../testing/collect.js';
import { fromArray } from '../testing/from-array.js';
import { batch, unbatch } from './batch.js';
import { buildExamples } from './build-examples.js';
import { run } from './run/pipeline.js';

const rows = (count: number): { id: string }[] =>
  Array.from({ length: count }, (_, index) =>
    withPosition({ id: String(index) }, { row: index, line: index + 2 }),
  );

describe('batch and unbatch', () => {
  it('groups records into arrays of the size, the last one shorter, and unbatch restores them', async () => {
    const batches = await collect(fromArray([1, 2, 3, 4, 5, 6, 7]).pipeThrough(batch<number>(3)));
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    const records = await collect(
      fromArray<number | number[]>([[1, 2], 3, [4]]).pipeThrough(unbatch<number>()),
    );
    expect(records).toEqual([1, 2, 3, 4]);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => batch(0)).toThrow(/positive integer/);
    expect(() => batch(1.5)).toThrow(/positive integer/);
  });
});

describe('buildExamples on batches', () => {
  it('builds the same Examples from batches as from single rows', async () => {
    const single = await collect(fromArray(rows(7)).pipeThrough(buildExamples({ id: 'int64' })));
    const batched: Example[][] = await collect(
      fromArray(rows(7))
        .pipeThrough(batch<{ id: string }>(3))
        .pipeThrough(buildExamples.batches({ id: 'int64' })),
    );
    expect(batched.map((examples) => examples.length)).toEqual([3, 3, 1]);
    expect(batched.flat()).toEqual(single);
  });

  it('skips a bad row inside a batch with its own position and keeps the others', async () => {
    const skipped: TfpipeError[] = [];
    const input = rows(5);
    input[3]!.id = 'three';
    const stage = buildExamples.batches(
      { id: 'int64' },
      { onError: 'skip', onSkip: (error) => skipped.push(error) },
    );
    const output = await collect(fromArray([input]).pipeThrough(stage));
    expect(output).toHaveLength(1);
    expect(output[0]!.map((example) => example.features.id?.value)).toEqual([[0n], [1n], [2n], [4n]]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.position).toMatchObject({ row: 3, line: 5, field: 'id' });
  });

  it('run() counts records inside batches, not chunks', async () => {
    const written: unknown[] = [];
    const summary = await run(
      fromArray(rows(10)),
      batch<{ id: string }>(4),
      buildExamples.batches({ id: 'int64' }),
      new WritableStream({ write: (chunk) => void written.push(chunk) }),
    );
    expect(written).toHaveLength(3);
    expect(summary.recordsRead).toBe(10);
    expect(summary.recordsWritten).toBe(10);
  });
});
