import { describe, expect, test } from 'vitest';
import { planColumns } from './column-plan.js';

// Hostile widths: bounded in time so CI (2 cores) runs them on every push.
const COLUMNS = 200_000;

describe('a 200k-column header', () => {
  const header = Array.from({ length: COLUMNS }, (_, index) => `c${index}`);

  test('is checked for duplicate names in linear time (was quadratic: 44 s)', () => {
    const started = performance.now();
    const plan = planColumns(header, { rename: { c1: 'renamed' } }, 'wide.csv', 1);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(plan.names).toHaveLength(COLUMNS);
    expect(plan.names[1]).toBe('renamed');
  });

  test('still names the duplicate at the end of a wide header, and the renamed one', () => {
    const duplicated = [...header, 'c7'];
    expect(() => planColumns(duplicated, {}, 'wide.csv', 1)).toThrow(
      expect.objectContaining({
        code: 'CSV_HEADER',
        position: expect.objectContaining({ column: COLUMNS + 1 }),
      }),
    );
    expect(() => planColumns(header, { rename: { c0: `c${COLUMNS - 1}` } }, 'wide.csv', 1)).toThrow(
      expect.objectContaining({ code: 'CSV_HEADER', position: expect.objectContaining({ column: COLUMNS }) }),
    );
  });
});
