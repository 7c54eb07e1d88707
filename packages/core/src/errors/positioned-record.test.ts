import { describe, expect, it } from 'vitest';
import { positionOf } from '../contract/plugin-contract.js';
import { PositionedRecord } from './positioned-record.js';

describe('PositionedRecord', () => {
  it('gives a CSV row its file, line and row, and a Parquet row its row group and record index', () => {
    expect(JSON.stringify(positionOf(new PositionedRecord('a.csv', 4, 6)))).toBe(
      '{"file":"a.csv","line":6,"row":4}',
    );
    expect(JSON.stringify(positionOf(new PositionedRecord('a.parquet', 9, -1, 2, 9)))).toBe(
      '{"file":"a.parquet","rowGroup":2,"row":9,"recordIndex":9}',
    );
  });

  it('keeps the position out of keys, spreads and JSON, and builds it once', () => {
    const row = Object.assign(new PositionedRecord('a.csv', 0, 2), { x: '1' });
    expect(Object.keys(row)).toEqual(['x']);
    expect({ ...row }).toEqual({ x: '1' });
    expect(JSON.stringify(row)).toBe('{"x":"1"}');
    expect(positionOf(row)).toBe(positionOf(row));
  });
});
