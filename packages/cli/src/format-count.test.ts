import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from './preview.js';

// The reference is the platform's own locale formatting, which formatCount replaces to save its start-up.
const reference = (count: number): string => Math.round(count).toLocaleString('en-US');

describe('formatCount', () => {
  it('groups digits as toLocaleString("en-US") does, 0 to 2^53', () => {
    for (const count of [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1_000,
      9_999,
      10_000,
      123_456,
      1_000_000,
      2 ** 31,
      2 ** 53 - 1,
    ])
      expect(formatCount(count)).toBe(reference(count));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (count) => {
        expect(formatCount(count)).toBe(reference(count));
      }),
    );
  });

  it('rounds rates half away from zero and keeps the sign', () => {
    const cases: [number, string][] = [
      [0.4, '0'],
      [0.5, '1'],
      [1.49, '1'],
      [1.5, '2'],
      [999.5, '1,000'],
      [1_234_567.8, '1,234,568'],
      [-1, '-1'],
      [-2.5, '-3'],
      [-1_234_567, '-1,234,567'],
    ];
    for (const [count, printed] of cases) expect(formatCount(count)).toBe(printed);
  });
});
