import { cellError, preview } from './cell-context.js';
import type { CellContext } from './cell-context.js';
import { decimalFloat } from '../../text/decimal-text.js';

/**
 * One float value from a cell: a number, a bigint (converted with `Number`, so beyond 2^53 it is
 * rounded, and float32 keeps 24 bits anyway), or a number's text in the one grammar of `text/decimal-text.ts`
 * (Python's `float()`: whitespace around, `_` between digits, `inf` / `nan` in any case). Booleans
 * are refused.
 * @throws TfpipeError `FEATURE_TYPE`
 */
export function floatValue(value: unknown, context: CellContext): number {
  switch (typeof value) {
    case 'number':
      return value;
    case 'string': {
      const number = decimalFloat(value);
      if (number !== undefined) return number;
      throw cellError('FEATURE_TYPE', `${preview(value)} is not a number`, context);
    }
    case 'bigint':
      return Number(value);
    default:
      throw cellError('FEATURE_TYPE', `${preview(value)} is not a float value`, context);
  }
}
