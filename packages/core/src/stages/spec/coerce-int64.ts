import { cellError, preview } from './cell-context.js';
import type { CellContext } from './cell-context.js';
import { decimalInteger } from '../../text/decimal-text.js';

/** The int64 range as bigints. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * One int64 value from a cell: a bigint in range, a safe-integer number, a boolean (1/0), or a
 * integer's text in the one grammar of `text/decimal-text.ts` (Python's `int()`: whitespace around,
 * a sign, `_` between digits), parsed exactly.
 * @throws TfpipeError `FEATURE_TYPE`, `UNSAFE_INTEGER` or `INT64_RANGE`
 */
export function int64Value(value: unknown, context: CellContext): bigint {
  switch (typeof value) {
    case 'string':
      return int64FromString(value, context);
    case 'number':
      if (Number.isSafeInteger(value)) return BigInt(value);
      throw cellError(
        'UNSAFE_INTEGER',
        Number.isInteger(value)
          ? `${value} is beyond Number.MAX_SAFE_INTEGER and may already be rounded; pass a bigint or a string`
          : `${value} is not an integer`,
        context,
      );
    case 'bigint':
      return inRange(value, context);
    case 'boolean':
      return value ? 1n : 0n;
    default:
      throw cellError('FEATURE_TYPE', `${preview(value)} is not an int64 value`, context);
  }
}

function int64FromString(value: string, context: CellContext): bigint {
  const integer = decimalInteger(value);
  if (integer !== undefined) return inRange(integer, context);
  if (context.booleanStrings) {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return 1n;
    if (lower === 'false') return 0n;
  }
  throw cellError('FEATURE_TYPE', `${preview(value)} is not a decimal integer`, context);
}

function inRange(value: bigint, context: CellContext): bigint {
  if (value < INT64_MIN || value > INT64_MAX) {
    throw cellError('INT64_RANGE', `${value} is outside the int64 range [-2^63, 2^63 - 1]`, context);
  }
  return value;
}
