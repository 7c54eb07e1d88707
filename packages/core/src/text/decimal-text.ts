/**
 * The one grammar of numbers written as text, read by core's cell coercion (`buildExamples`) and by
 * `@tfpipe/source-csv` alike. It is Python's `int()` and `float()`, which TFX CsvExampleGen reads CSV
 * cells with, on ASCII digits:
 *
 * - whitespace around the number is ignored (`String.prototype.trim`'s);
 * - an integer is `[+-]? digits ('_' digits)*`: a sign, and `_` only between digits (`1_000`);
 * - a float is also `.5`, `5.`, `5.25` and an exponent `e±digits` (the same `_` rule in every
 *   digit run), or `inf`, `infinity`, `nan` with an optional sign, in any case.
 *
 * Refused, as Python refuses them: hex, octal and binary prefixes (`0x1F`, which
 * `tf.strings.to_number` would read), `_` at an edge or doubled, a lone `.` or sign, and anything
 * else. pandas reads the same numbers except that it refuses `_`.
 */

import { trimCell } from '../stages/spec/trim-cell.js';
import { plainDecimal, smallInteger } from './plain-decimal.js';

/** `[+-]? digits (_ digits)*`. */
const INTEGER_TEXT = /^[+-]?\d+(?:_\d+)*$/;
/** The float grammar without the spelled-out specials. */
const FLOAT_TEXT = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;

/** The non-finite spellings TensorFlow, NumPy, pandas and Python write, compared lower-cased. */
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
 * An integer in the grammar, exactly, or undefined for any other text (a fraction, an exponent,
 * `inf` …). The int64 range is not checked here.
 */
export function decimalInteger(text: string): bigint | undefined {
  const small = smallInteger(text);
  if (small !== undefined) return BigInt(small);
  let trimmed = trimCell(text);
  if (!INTEGER_TEXT.test(trimmed)) return undefined;
  if (trimmed.includes('_')) trimmed = trimmed.replaceAll('_', '');
  return BigInt(trimmed);
}

/**
 * A number in the grammar, as the double `Number` gives for its digits (correctly rounded), or
 * undefined for any other text. Integers are numbers too (`7` → 7).
 */
export function decimalFloat(text: string): number | undefined {
  const plain = plainDecimal(text);
  if (plain === plain) return plain;
  const trimmed = trimCell(text);
  // Next fastest: `Number` reads exactly the grammar except `_`, the lower-case specials, and the
  // 0x/0o/0b prefixes and "" it must not be given.
  const second = trimmed.charCodeAt(1) | 0x20;
  if (trimmed.length > 0 && second !== 0x78 && second !== 0x6f && second !== 0x62) {
    const number = Number(trimmed);
    if (number === number) return number;
  }
  if (FLOAT_TEXT.test(trimmed)) return Number(trimmed.replaceAll('_', ''));
  return SPECIAL.get(trimmed.toLowerCase());
}
