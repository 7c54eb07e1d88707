import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytes, decodeExample, example, int64, TfpipeError } from '@tfpipe/core';
import { collect, fromArray } from '@tfpipe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { externalShuffle } from './external-shuffle.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-xshuffle-test-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const records = Array.from({ length: 3000 }, (_, index) =>
  example({ id: int64(index), pad: bytes('x'.repeat(20)) }),
);
const ids = (payloads: Uint8Array[]) =>
  payloads.map((payload) => Number((decodeExample(payload).features.id!.value as bigint[])[0]));

async function shuffle(seed: number, memoryBytes: number): Promise<number[]> {
  const stage = externalShuffle({ seed, memoryBytes, directory });
  return ids(await collect(fromArray(records).pipeThrough(stage)));
}

describe('externalShuffle', () => {
  it('spills runs, merges every record exactly once in a new order, and removes its files', async () => {
    const stage = externalShuffle({ seed: 3, memoryBytes: 8192, directory });
    const output = ids(await collect(fromArray(records).pipeThrough(stage)));
    expect(output).toHaveLength(records.length);
    expect([...output].sort((a, b) => a - b)).toEqual(records.map((_, index) => index));
    expect(output).not.toEqual(records.map((_, index) => index));
    const { reportOf } = await import('@tfpipe/core');
    expect(reportOf(stage)?.details?.shuffleRuns).toBeGreaterThan(10);
    expect(await readdir(directory)).toEqual([]);
  });

  it('gives the same order for the same seed, another for another seed, in memory or on disk', async () => {
    const seedOne = await shuffle(1, 8192);
    expect(await shuffle(1, 8192)).toEqual(seedOne);
    expect(seedOne).not.toEqual(await shuffle(2, 8192));
    const inMemory = await shuffle(1, 1 << 30);
    expect([...inMemory].sort((a, b) => a - b)).toEqual(records.map((_, index) => index));
    expect(inMemory).not.toEqual(records.map((_, index) => index));
  });

  it('spreads the first record over the whole output (a full shuffle, not a local one)', async () => {
    const positions = [];
    for (let seed = 0; seed < 8; seed++) positions.push((await shuffle(seed, 8192)).indexOf(0));
    expect(Math.max(...positions)).toBeGreaterThan(1500);
  });

  it('merges more runs than maxOpenRuns in passes: every record once, spread over the whole output', async () => {
    const { reportOf } = await import('@tfpipe/core');
    const positions: number[] = [];
    for (let seed = 0; seed < 12; seed++) {
      const stage = externalShuffle({ seed, memoryBytes: 4096, directory, maxOpenRuns: 4 });
      const output = ids(await collect(fromArray(records).pipeThrough(stage)));
      expect([...output].sort((a, b) => a - b)).toEqual(records.map((_, index) => index));
      expect(reportOf(stage)?.details?.shuffleMergePasses).toBeGreaterThanOrEqual(2);
      expect(await readdir(directory)).toEqual([]);
      positions.push(output.indexOf(0), output.indexOf(records.length - 1));
    }
    // The first and last inputs land anywhere, not near their runs' places.
    expect(Math.min(...positions)).toBeLessThan(750);
    expect(Math.max(...positions)).toBeGreaterThan(2250);
    expect(() => externalShuffle({ maxOpenRuns: 1 })).toThrow(/maxOpenRuns must be an integer of at least 2/);
  });

  it('removes its temporaries when the input fails halfway', async () => {
    const failing = new ReadableStream({
      pull(controller) {
        for (const record of records.slice(0, 1000)) controller.enqueue(record);
        controller.error(new TfpipeError('CSV_PARSE', 'bad row'));
      },
    });
    const stage = externalShuffle({ seed: 1, memoryBytes: 4096, directory });
    await expect(collect(failing.pipeThrough(stage))).rejects.toThrow('bad row');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readdir(directory)).toEqual([]);
  });

  it('removes its temporaries when the reader cancels early', async () => {
    const stage = externalShuffle({ seed: 1, memoryBytes: 4096, directory });
    const reader = fromArray(records).pipeThrough(stage).getReader();
    await reader.read();
    await reader.cancel('enough');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readdir(directory)).toEqual([]);
  });
});
