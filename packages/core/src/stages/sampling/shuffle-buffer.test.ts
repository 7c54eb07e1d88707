import { describe, expect, it } from 'vitest';
import { collect, fromArray } from '../../testing/index.js';
import { sampleRows } from './sample-rows.js';
import { seededRandom } from './seeded-random.js';
import { shuffleBuffer } from './shuffle-buffer.js';

const input = Array.from({ length: 1000 }, (_, index) => index);

async function shuffled(size: number, seed: number): Promise<number[]> {
  return collect(fromArray(input).pipeThrough(shuffleBuffer<number>({ size, seed })));
}

describe('shuffleBuffer', () => {
  it('emits every record exactly once, in another order', async () => {
    const output = await shuffled(100, 1);
    expect(output).toHaveLength(input.length);
    expect([...output].sort((a, b) => a - b)).toEqual(input);
    expect(output).not.toEqual(input);
  });

  it('gives the same order for the same seed and another for another seed', async () => {
    expect(await shuffled(64, 7)).toEqual(await shuffled(64, 7));
    expect(await shuffled(64, 7)).not.toEqual(await shuffled(64, 8));
  });

  it('moves a record at most `size` places earlier (a bounded buffer)', async () => {
    const output = await shuffled(10, 3);
    output.forEach((value, position) => expect(value - position).toBeLessThanOrEqual(10));
  });

  it('with a buffer larger than the input, spreads the first record uniformly', async () => {
    const counts = new Array<number>(10).fill(0);
    for (let seed = 0; seed < 2000; seed++) {
      const output = await collect(
        fromArray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).pipeThrough(shuffleBuffer<number>({ size: 100, seed })),
      );
      counts[output.indexOf(0)]!++;
    }
    for (const count of counts) expect(count).toBeGreaterThan(140); // expected 200 each
  });

  it('rejects a size that is not a positive integer', () => {
    expect(() => shuffleBuffer({ size: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

describe('seededRandom', () => {
  it('is reproducible and uniform enough', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const values = Array.from({ length: 10000 }, () => a.next());
    expect(values.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b.next()));
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});

describe('sampleRows', () => {
  it('keeps exactly count rows, in input order, the same for the same seed', async () => {
    const sample = (seed: number) =>
      collect(fromArray(input).pipeThrough(sampleRows<number>({ count: 50, seed })));
    const first = await sample(5);
    expect(first).toHaveLength(50);
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(await sample(5)).toEqual(first);
    expect(await sample(6)).not.toEqual(first);
  });

  it('keeps about fraction of the rows', async () => {
    const kept = await collect(fromArray(input).pipeThrough(sampleRows<number>({ fraction: 0.25, seed: 1 })));
    expect(kept.length).toBeGreaterThan(200);
    expect(kept.length).toBeLessThan(300);
  });
});
