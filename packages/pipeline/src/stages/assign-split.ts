import { positionOf, TfpipeError } from '@tfpipe/core';
import { rowValue } from './row-value.js';
import { hashFraction } from './split-hash.js';

/** Splits by ratio, assigned by hashing a key column. */
export interface HashSplitOptions {
  /** The column (or feature) whose value decides the split: an id, a file name, a user. */
  readonly key: string;
  /**
   * Split name → fraction of the rows, e.g. `{ train: 0.8, validation: 0.1, test: 0.1 }`. Fractions
   * are ≥ 0 and sum to 1 (within 1e-9). Order matters: it is the order of the cumulative ranges.
   */
  readonly ratios: Readonly<Record<string, number>>;
}

/** Splits by a column that already names the split of each row. */
export interface ColumnSplitOptions {
  /** The column (or feature) holding the split name (`"train"`, `"test"` …). */
  readonly column: string;
  /** The split names allowed; a row with another value is a `SPLIT` error. @default any name */
  readonly names?: readonly string[];
}

/** Options of {@link splitAssigner}. */
export type SplitOptions = HashSplitOptions | ColumnSplitOptions;

/** Assigns each row its split. */
export interface SplitAssigner {
  /** The split names known before any row (every ratio split; `names` of a column split). */
  readonly names: readonly string[];
  /** The split of `row` (the `index`-th row seen). @throws TfpipeError `SPLIT` (a record error). */
  assign(row: unknown, index: number): string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const encoder = new TextEncoder();

function splitError(detail: string, fatal: boolean, position = {}): TfpipeError {
  return new TfpipeError('SPLIT', detail, { stage: 'split', fatal, position });
}

function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw splitError(
      `split name ${JSON.stringify(name)} must be letters, digits, _ . - (it names files)`,
      true,
    );
  }
}

/**
 * The bytes hashed for a key value: strings as UTF-8, integers (number or bigint) in decimal,
 * other numbers as JavaScript prints them, booleans as `true`/`false`, bytes as they are. So the
 * CSV cell `"42"`, the Parquet int64 `42n` and the Feature `int64(42)` land in the same split.
 */
export function splitKeyBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return encoder.encode(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return encoder.encode(String(value));
  }
  return undefined;
}

/**
 * Checks split options and returns the assigner. Hash splits are deterministic: a row goes to the
 * first split (in the order of `ratios`) whose cumulative ratio exceeds `hashFraction(key bytes)`,
 * i.e. FNV-1a 64 of the key's bytes mixed by MurmurHash3's fmix64, top 53 bits over 2^53. The same
 * key lands in the same split on every run, machine and input order; changing the ratios moves only
 * the keys near the changed boundaries.
 *
 * @throws TfpipeError `SPLIT` (fatal) when ratios do not sum to 1, are negative, or names are bad.
 */
export function splitAssigner(options: SplitOptions): SplitAssigner {
  if ('ratios' in options) return hashSplit(options);
  if ('column' in options) return columnSplit(options);
  throw splitError('split needs { key, ratios } or { column }', true);
}

function hashSplit(options: HashSplitOptions): SplitAssigner {
  const entries = Object.entries(options.ratios);
  if (entries.length === 0) throw splitError('split ratios are empty', true);
  let sum = 0;
  for (const [name, ratio] of entries) {
    checkName(name);
    if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0) {
      throw splitError(`split ratio of ${name} must be a number ≥ 0, got ${JSON.stringify(ratio)}`, true);
    }
    sum += ratio;
  }
  if (Math.abs(sum - 1) > 1e-9) {
    throw splitError(
      `split ratios must sum to 1, got ${entries.map(([, ratio]) => ratio).join(' + ')} = ${Number(sum.toFixed(12))}`,
      true,
    );
  }
  if (typeof options.key !== 'string' || options.key === '')
    throw splitError('split key must be a column name', true);
  const bounds: number[] = [];
  let cumulative = 0;
  for (const [, ratio] of entries) bounds.push((cumulative += ratio));
  const names = entries.map(([name]) => name);
  // The last non-empty split takes whatever rounding leaves above the final cumulative sum.
  let last = 0;
  entries.forEach(([, ratio], index) => {
    if (ratio > 0) last = index;
  });
  return {
    names,
    assign(row, index) {
      const bytes = splitKeyBytes(rowValue(row, options.key, { bytes: 'raw' }));
      if (bytes === undefined) throw missingKey(row, index, options.key);
      const fraction = hashFraction(bytes);
      const found = bounds.findIndex((bound, at) => fraction < bound && entries[at]![1] > 0);
      return names[found === -1 ? last : found]!;
    },
  };
}

function columnSplit(options: ColumnSplitOptions): SplitAssigner {
  if (typeof options.column !== 'string' || options.column === '') {
    throw splitError('split column must be a column name', true);
  }
  const names = options.names ?? [];
  names.forEach(checkName);
  const allowed = new Set(names);
  return {
    names,
    assign(row, index) {
      const value = rowValue(row, options.column);
      if (value === undefined || Array.isArray(value)) throw missingKey(row, index, options.column);
      let name: string;
      if (typeof value === 'string') name = value;
      else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
        name = String(value);
      else if (value instanceof Uint8Array) name = new TextDecoder().decode(value);
      else throw missingKey(row, index, options.column);
      if (allowed.size > 0 ? !allowed.has(name) : !NAME.test(name)) {
        throw splitError(
          `split column value ${JSON.stringify(name)} is not one of ${allowed.size > 0 ? names.join(', ') : 'the allowed names (letters, digits, _ . -)'}`,
          false,
          rowPosition(row, index, options.column),
        );
      }
      return name;
    },
  };
}

function rowPosition(row: unknown, index: number, field: string) {
  return { ...(positionOf(row) ?? { row: index }), field };
}

function missingKey(row: unknown, index: number, key: string): TfpipeError {
  return splitError(
    `split key "${key}" is missing or not a single value`,
    false,
    rowPosition(row, index, key),
  );
}
