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

/** Exact powers of ten (10^22 is the last exact double). */
const POWERS = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];
/** Digits a mantissa may have and stay an exact double (10^15 < 2^53). */
const MAX_DIGITS = 15;
const MAX_POWER = 22;

/**
 * A plain decimal (`[+-]digits[.digits][e[+-]digits]`, at most 15 significant-or-not digits before
 * the exponent, and a power of ten within ±22), or NaN for anything else. One exact integer times or
 * divided by an exact power of ten is one correctly rounded operation (Clinger's fast path), so the
 * double is the one `Number(text)` gives, and so is the float32 it rounds to.
 */
export function plainDecimal(text: string): number {
  const length = text.length;
  let index = 0;
  let code = text.charCodeAt(0);
  const negative = code === 0x2d;
  if (negative || code === 0x2b) index = 1;
  let mantissa = 0;
  let digits = 0;
  for (; index < length; index++) {
    code = text.charCodeAt(index) - 0x30;
    if (code < 0 || code > 9) break;
    mantissa = mantissa * 10 + code;
    digits++;
  }
  let power = 0;
  if (index < length && text.charCodeAt(index) === 0x2e) {
    const start = ++index;
    for (; index < length; index++) {
      code = text.charCodeAt(index) - 0x30;
      if (code < 0 || code > 9) break;
      mantissa = mantissa * 10 + code;
    }
    power = start - index;
    digits -= power;
  }
  if (digits === 0 || digits > MAX_DIGITS) return Number.NaN;
  if (index < length && (text.charCodeAt(index) | 0x20) === 0x65) {
    code = text.charCodeAt(++index);
    const negativeExponent = code === 0x2d;
    if (negativeExponent || code === 0x2b) index++;
    const start = index;
    let exponent = 0;
    for (; index < length && index - start < 4; index++) {
      code = text.charCodeAt(index) - 0x30;
      if (code < 0 || code > 9) break;
      exponent = exponent * 10 + code;
    }
    if (index === start) return Number.NaN;
    power += negativeExponent ? -exponent : exponent;
  }
  if (index !== length || power < -MAX_POWER || power > MAX_POWER) return Number.NaN;
  const value = power < 0 ? mantissa / POWERS[-power]! : mantissa * POWERS[power]!;
  return negative ? -value : value;
}

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
      const decimal = plainDecimal(text);
      if (decimal === decimal) return decimal;
      // Next fastest: Number() parses exactly our grammar except for "" and the 0x/0o/0b prefixes
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
