import { cellError, preview } from './cell-context.js';
import type { CellContext } from './cell-context.js';
import { trimCell } from './trim-cell.js';

/** Decimal numbers with an optional sign, fraction and exponent: `1`, `-1.5`, `+.5`, `1.`, `6.02e23`. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The non-finite spellings TensorFlow, NumPy and pandas write, compared lower-cased. */
const SPECIAL = new Map<string, number>([
  ['nan', Number.NaN],
  ['+nan', Number.NaN],
  ['-nan', Number.NaN],
  ['inf', Number.POSITIVE_INFINITY],
  ['+inf', Number.POSITIVE_INFINITY],
  ['-inf', Number.NEGATIVE_INFINITY],
  ['infinity', Number.POSITIVE_INFINITY],
  ['+infinity', Number.POSITIVE_INFINITY],
  ['-infinity', Number.NEGATIVE_INFINITY],
]);

/**
 * One float value from a cell: a number, a bigint (converted with `Number`, so beyond 2^53 it is
 * rounded, and float32 keeps 24 bits anyway), or a decimal string (surrounding whitespace allowed;
 * `NaN`, `inf`, `Infinity` with an optional sign, any case). Booleans are refused.
 * @throws TfpipeError `FEATURE_TYPE`
 */
export function floatValue(value: unknown, context: CellContext): number {
  switch (typeof value) {
    case 'number':
      return value;
    case 'string': {
      const text = trimCell(value);
      // Fast path: Number() parses exactly our grammar except for "" and the 0x/0o/0b prefixes
      // (it also takes "Infinity", which we accept anyway); everything else falls to the regex.
      const second = text.charCodeAt(1) | 0x20;
      if (text.length > 0 && second !== 0x78 && second !== 0x6f && second !== 0x62) {
        const number = Number(text);
        if (number === number) return number;
      }
      if (DECIMAL.test(text)) return Number(text);
      const special = SPECIAL.get(text.toLowerCase());
      if (special !== undefined) return special;
      throw cellError('FEATURE_TYPE', `${preview(value)} is not a number`, context);
    }
    case 'bigint':
      return Number(value);
    default:
      throw cellError('FEATURE_TYPE', `${preview(value)} is not a float value`, context);
  }
}
