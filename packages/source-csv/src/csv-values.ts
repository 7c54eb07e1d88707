/**
 * Cell text → values, in core's one number grammar (`decimalInteger`, `decimalFloat`: Python's, and
 * so TFX's, rules: surrounding whitespace allowed, a leading `+` or `-`, `_` between digits; floats
 * also take `.5`, `5.`, exponents and `inf`/`infinity`/`nan` in any case). int64 is exact (`bigint`)
 * over the full range.
 */

import { decimalFloat, decimalInteger, smallInteger } from '@tfpipe/core/internal';

/** A kind of CSV column: the `tf.train.Feature` kinds. */
export type CsvKind = 'int64' | 'float' | 'bytes';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Why a cell does not fit its column. */
export class CellValueError extends Error {}

/** True when `value` lies in [-2^63, 2^63 - 1]. */
export function inInt64Range(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** Parses an int64 cell exactly. @throws CellValueError */
export function parseInt64Text(text: string): bigint {
  const value = decimalInteger(text);
  if (value === undefined) throw new CellValueError(`${JSON.stringify(text)} is not an integer`);
  if (!inInt64Range(value)) throw new CellValueError(`${text.trim()} is outside the int64 range`);
  return value;
}

/**
 * {@link parseInt64Text} as a number where the value is a safe integer written as plain digits (the
 * common cell), so no bigint is made; a bigint otherwise. @throws CellValueError
 */
export function parseInt64Cell(text: string): number | bigint {
  // core's hand parser takes `[+-]digits` up to 15 characters, which Python's int() reads the same.
  const small = smallInteger(text);
  return small !== undefined ? small : parseInt64Text(text);
}

/**
 * Parses a float cell (stored later as float32). A number float32 cannot hold, `1e39` (would be
 * Infinity) or `1e-46` (would be 0), is an error rather than TensorFlow's silent rounding.
 * @throws CellValueError
 */
export function parseFloatText(text: string): number {
  const value = decimalFloat(text);
  if (value === undefined) throw new CellValueError(`${JSON.stringify(text)} is not a number`);
  const loss = float32Loss(text, value);
  if (loss !== undefined) throw new CellValueError(`${JSON.stringify(text)} ${loss}`);
  return value;
}

/** Largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * Why float32 cannot hold the number `text` spells (`value`, parsed as a double), or undefined when
 * it can: a finite literal that rounds to ±Infinity, or a nonzero literal that rounds to zero.
 * `inf` and `nan` spelled out are kept. Cheap: a `Math.fround` on the common path.
 */
export function float32Loss(text: string, value: number): string | undefined {
  const narrowed = Math.fround(value);
  if (narrowed === Infinity || narrowed === -Infinity) {
    // Only the spelled-out infinities contain an "n"; a numeric literal never does.
    if (/n/i.test(text)) return undefined;
    return `is beyond the float32 range (±${FLOAT32_MAX.toPrecision(8)}): it would be stored as ${narrowed}`;
  }
  if (narrowed === 0 && hasNonzeroDigit(text)) {
    return 'is too close to zero for float32 (under 1.4e-45): it would be stored as 0';
  }
  return undefined;
}

/** True when a digit 1-9 comes before the exponent (so the literal is not a zero). */
function hasNonzeroDigit(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x65 || code === 0x45) return false;
    if (code >= 0x31 && code <= 0x39) return true;
  }
  return false;
}

/** `true`/`false` (any case, trimmed) or the integers 1/0 → 1n/0n. @throws CellValueError */
export function parseBooleanText(text: string): bigint {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'true' || trimmed === '1') return 1n;
  if (trimmed === 'false' || trimmed === '0') return 0n;
  throw new CellValueError(`${JSON.stringify(text)} is not a boolean (true/false/1/0)`);
}

/** A zero before another digit (`007`, `-01`, `02134`, not `0`, `-0` or `0.5`): a code, not a number. */
const LEADING_ZERO = /^\s*[+-]?0\d/;

/**
 * The kind one non-empty cell infers: int64 when it is an integer in range, float when it parses as
 * a float that float32 holds, bytes otherwise. This is TFX's `_InferValueType` except where TFX
 * loses data, which stay bytes here: leading zeros (TFX reads the ZIP code `02134` as 2134),
 * integers beyond int64 (as TFX), and floats float32 cannot hold (TFX stores `1e309` as inf and
 * `1e-400` as 0). (Empty cells are "unknown" and are not passed here.)
 */
export function inferTextKind(text: string): CsvKind {
  if (LEADING_ZERO.test(text)) return 'bytes';
  const integer = decimalInteger(text);
  if (integer !== undefined) return inInt64Range(integer) ? 'int64' : 'bytes';
  const value = decimalFloat(text);
  return value === undefined || float32Loss(text, value) !== undefined ? 'bytes' : 'float';
}

/** The wider of two kinds: int64 < float < bytes. */
export function widenKind(a: CsvKind | undefined, b: CsvKind): CsvKind {
  if (a === undefined) return b;
  return KIND_RANK[a] >= KIND_RANK[b] ? a : b;
}

const KIND_RANK: Readonly<Record<CsvKind, number>> = { int64: 0, float: 1, bytes: 2 };
