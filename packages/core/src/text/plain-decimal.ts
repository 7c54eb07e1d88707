/**
 * Exact hand parsers for the commonest cells, cheaper than a regex plus `Number` or `BigInt`: each
 * reads a subset of the grammar in `decimal-text.ts` and gives what the full parser gives, or says
 * it cannot (NaN, undefined).
 */

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
