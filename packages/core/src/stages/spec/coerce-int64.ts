import { cellError, preview } from './cell-context.js';
import type { CellContext } from './cell-context.js';
import { trimCell } from './trim-cell.js';

/** The int64 range as bigints. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
/** Decimal integers only: no hex, no exponent, no fraction, no digit separators. */
export const INTEGER = /^[+-]?\d+$/;

/**
 * One int64 value from a cell: a bigint in range, a safe-integer number, a boolean (1/0), or a
 * decimal integer string (surrounding whitespace allowed) parsed exactly through BigInt.
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
  const text = trimCell(value);
  const small = smallInteger(text);
  if (small !== undefined) return BigInt(small);
  if (INTEGER.test(text)) return inRange(BigInt(text), context);
  if (context.booleanStrings) {
    const lower = text.toLowerCase();
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

/**
 * A decimal integer of at most 15 characters, parsed by hand (exact: below 2^53), or undefined for
 * anything else. Cheaper than a regex plus `BigInt(string)` for the common short cell.
 */
export function smallInteger(text: string): number | undefined {
  const length = text.length;
  if (length === 0 || length > 15) return undefined;
  let index = 0;
  const sign = text.charCodeAt(0);
  if (sign === 0x2d || sign === 0x2b) index = 1;
  if (index === length) return undefined;
  let value = 0;
  for (; index < length; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return sign === 0x2d ? -value : value;
}
