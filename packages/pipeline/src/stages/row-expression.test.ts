import { describe, expect, it } from 'vitest';
import { bytes, float, int64 } from '@tfpipe/core';
import { rowExpression } from './row-expression.js';

describe('rowExpression', () => {
  it('compares CSV text as numbers against numbers, and strings as strings', () => {
    const adult = rowExpression("age >= 18 and country in ['DE', 'FR']");
    expect(adult({ age: '18', country: 'DE' })).toBe(true);
    expect(adult({ age: '9', country: 'DE' })).toBe(false);
    expect(adult({ age: '40', country: 'US' })).toBe(false);
    expect(rowExpression('name < "b"')({ name: 'abc' })).toBe(true);
  });

  it('reads Features and Example features, with exact int64', () => {
    const big = rowExpression('id == 9007199254740993 and score > 0.5');
    expect(big({ id: int64(9007199254740993n), score: float(0.75) })).toBe(true);
    expect(big({ id: int64(9007199254740992n), score: float(0.75) })).toBe(false);
    const label = rowExpression('`image/class/text` == "cat" or not (`image/class/label` != 3)');
    expect(label({ features: { 'image/class/text': bytes('cat') } })).toBe(true);
    expect(label({ features: { 'image/class/label': int64(3) } })).toBe(true);
    expect(label({ features: { 'image/class/label': int64(4) } })).toBe(false);
  });

  it('treats a missing field as null', () => {
    expect(rowExpression('x == null')({})).toBe(true);
    expect(rowExpression('x > 1')({})).toBe(false);
    expect(rowExpression('x not in [1]')({})).toBe(true);
    expect(rowExpression('x')({ x: '0' })).toBe(false);
    expect(rowExpression('!x')({})).toBe(true);
  });

  it('reports syntax errors with their column, and never evaluates code', () => {
    expect(() => rowExpression('age >= )')).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', position: { column: 8 } }),
    );
    expect(() => rowExpression('process.exit(1)')).toThrow(
      expect.objectContaining({ position: { column: 13 } }),
    );
    expect(() => rowExpression("a == 'open")).toThrow(expect.objectContaining({ position: { column: 6 } }));
  });
});
