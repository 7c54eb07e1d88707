import { describe, expect, it } from 'vitest';
import { Histogram } from './histogram.js';
import { TopValues } from './top-values.js';

/** Each bin's count against the values in its range, counted here. */
function expectExact(histogram: Histogram, values: readonly number[]): void {
  const { edges, counts } = histogram.view();
  counts.forEach((count, index) => {
    const inside = values.filter((value) => value >= edges[index]! && value < edges[index + 1]!).length;
    expect([edges[index], count]).toEqual([edges[index], inside]);
  });
  expect(counts.reduce((sum, count) => sum + count, 0)).toBe(values.length);
}

describe('Histogram', () => {
  it('keeps at most 32 bins of exact counts over any range', () => {
    const values = [0.5, -3, 1e6, 42, 42, 7.25, -1e-3, 123456.789];
    const histogram = new Histogram();
    for (const value of values) histogram.add(value);
    expect(histogram.view().counts.length).toBeLessThanOrEqual(32);
    expectExact(histogram, values);
  });

  it('gives integers bins one wide while their range fits', () => {
    const histogram = new Histogram(true);
    for (const value of [3, 0, 1, 1, 2]) histogram.add(value);
    expect(histogram.view()).toEqual({ edges: [0, 1, 2, 3, 4], counts: [1, 2, 1, 1] });
  });

  it('takes the extremes of float64 without losing a count', () => {
    const values = [Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324, 0];
    const histogram = new Histogram();
    for (const value of values) histogram.add(value);
    const { counts, edges } = histogram.view();
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(edges.every((edge) => Number.isFinite(edge) || Math.abs(edge) === Infinity)).toBe(true);
  });

  it('is empty before any value', () => {
    expect(new Histogram().view()).toEqual({ edges: [], counts: [] });
  });
});

describe('TopValues', () => {
  it('counts exactly while few values are distinct', () => {
    const top = new TopValues(4);
    for (const value of ['a', 'b', 'a', 'c', 'a', 'b']) top.add(value);
    expect(top.top()).toEqual([
      { value: 'a', count: 3, error: 0 },
      { value: 'b', count: 2, error: 0 },
      { value: 'c', count: 1, error: 0 },
    ]);
  });

  it('keeps a value seen more than n / capacity times among many distinct ones, its count bounded', () => {
    const top = new TopValues(8);
    const stream: string[] = [];
    for (let index = 0; index < 1000; index++) stream.push(index % 4 === 0 ? 'heavy' : `v${index}`);
    for (const value of stream) top.add(value);
    const heavy = top.top(1)[0]!;
    expect(heavy.value).toBe('heavy');
    expect(heavy.count - heavy.error).toBeLessThanOrEqual(250);
    expect(heavy.count).toBeGreaterThanOrEqual(250);
  });
});
