import { describe, expect, it } from 'vitest';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { CellContext } from './cell-context.js';
import { cellCoercer } from './coerce-cell.js';

const context: CellContext = { stage: 'buildExamples', feature: 'f', field: 'col', booleanStrings: false };
const int64 = cellCoercer('int64', undefined, context);
const float = cellCoercer('float', undefined, context);
const bytes = cellCoercer('bytes', undefined, context);

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (TfpipeError.is(error)) {
      expect(error.position.field).toBe('col');
      expect(error.stage).toBe('buildExamples');
      return error.code;
    }
    throw error;
  }
  return 'no error';
}

describe('int64 cells', () => {
  it('parses decimal strings exactly, beyond 2^53', () => {
    expect(int64('9007199254740993').value).toEqual([9007199254740993n]);
    expect(int64('-9223372036854775808').value).toEqual([-9223372036854775808n]);
    expect(int64('9223372036854775807').value).toEqual([9223372036854775807n]);
    expect(int64('+42').value).toEqual([42n]);
    expect(int64(' 7 ').value).toEqual([7n]);
    expect(int64('-0').value).toEqual([0n]);
    expect(int64('000123').value).toEqual([123n]);
    // Python's int() (and so TFX CsvExampleGen) reads `_` between digits; so do CSV cells.
    expect(int64('1_000').value).toEqual([1000n]);
    expect(int64(' -9_223_372_036_854_775_808 ').value).toEqual([-9223372036854775808n]);
  });

  it('rejects strings beyond int64 with INT64_RANGE', () => {
    expect(codeOf(() => int64('9223372036854775808'))).toBe('INT64_RANGE');
    expect(codeOf(() => int64('-9223372036854775809'))).toBe('INT64_RANGE');
    expect(codeOf(() => int64(2n ** 63n))).toBe('INT64_RANGE');
  });

  it('rejects text that is not a decimal integer with FEATURE_TYPE', () => {
    for (const text of ['1.5', '1e3', '0x10', '12abc', ' ', '1 2', '_1', '1_', '1__0', '--1', 'true', '']) {
      expect(
        codeOf(() => int64(text)),
        text,
      ).toBe('FEATURE_TYPE');
    }
  });

  it('takes safe integers, refuses unsafe numbers with UNSAFE_INTEGER', () => {
    expect(int64(Number.MAX_SAFE_INTEGER).value).toEqual([9007199254740991n]);
    expect(codeOf(() => int64(2 ** 53))).toBe('UNSAFE_INTEGER');
    expect(codeOf(() => int64(1.5))).toBe('UNSAFE_INTEGER');
    expect(codeOf(() => int64(Number.NaN))).toBe('UNSAFE_INTEGER');
  });

  it('maps booleans to 1 and 0, and "true"/"false" strings only when asked', () => {
    expect(int64(true).value).toEqual([1n]);
    expect(int64([false, true]).value).toEqual([0n, 1n]);
    const lenient = cellCoercer('int64', undefined, { ...context, booleanStrings: true });
    expect(lenient('TRUE').value).toEqual([1n]);
    expect(lenient('False').value).toEqual([0n]);
    expect(codeOf(() => lenient('yes'))).toBe('FEATURE_TYPE');
  });

  it('converts typed arrays element by element', () => {
    expect(int64(new Int32Array([-1, 2])).value).toEqual([-1n, 2n]);
    expect(int64(new BigInt64Array([5n])).value).toEqual([5n]);
    expect(codeOf(() => int64(new BigUint64Array([2n ** 64n - 1n])))).toBe('INT64_RANGE');
  });
});

describe('float cells', () => {
  it('parses decimals, exponents, signs and the non-finite spellings', () => {
    expect(float('1.5').value).toEqual([1.5]);
    expect(float('+.5').value).toEqual([0.5]);
    expect(float('-2.').value).toEqual([-2]);
    expect(float('6.02E23').value).toEqual([6.02e23]);
    expect(float('1e-3').value).toEqual([0.001]);
    expect(float(' 3 ').value).toEqual([3]);
    for (const text of ['NaN', 'nan', '-nan']) expect(float(text).value[0], text).toBeNaN();
    for (const text of ['inf', '+inf', 'Infinity', '+INFINITY'])
      expect(float(text).value).toEqual([Infinity]);
    for (const text of ['-inf', '-Infinity']) expect(float(text).value).toEqual([-Infinity]);
  });

  it('rejects garbage with FEATURE_TYPE', () => {
    for (const text of ['1.2.3', '12abc', '0x10', 'e5', '.', '+', '1e', 'infinite', '1,5', ' ']) {
      expect(
        codeOf(() => float(text)),
        text,
      ).toBe('FEATURE_TYPE');
    }
    expect(codeOf(() => float(true))).toBe('FEATURE_TYPE');
  });

  it('converts bigints with Number and keeps a Float32Array as it is', () => {
    expect(float(2n ** 60n).value).toEqual([2 ** 60]);
    const values = new Float32Array([1, 2]);
    expect(float(values).value).toBe(values);
    expect(float(new Float64Array([0.25])).value).toEqual([0.25]);
  });
});

describe('bytes cells', () => {
  it('encodes strings as UTF-8 and numbers as their decimal text', () => {
    expect(bytes('é€').value).toEqual([new Uint8Array([0xc3, 0xa9, 0xe2, 0x82, 0xac])]);
    expect(bytes(42).value).toEqual([new TextEncoder().encode('42')]);
    expect(bytes(-7n).value).toEqual([new TextEncoder().encode('-7')]);
  });

  it('passes a Uint8Array through as one value, uncopied', () => {
    const data = new Uint8Array([1, 2, 3]);
    expect(bytes(data).value[0]).toBe(data);
    expect(bytes([data, 'a']).value).toHaveLength(2);
  });

  it('refuses booleans and plain objects', () => {
    expect(codeOf(() => bytes(true))).toBe('FEATURE_TYPE');
    expect(codeOf(() => bytes({ a: 1 }))).toBe('FEATURE_TYPE');
  });
});

describe('lists, split and ready Features', () => {
  it('splits strings; numeric pieces are trimmed, bytes pieces kept verbatim', () => {
    expect(cellCoercer('int64', ',', context)('1, 2 ,3').value).toEqual([1n, 2n, 3n]);
    expect(cellCoercer('float', ';', context)('1.5;inf').value).toEqual([1.5, Infinity]);
    const pieces = cellCoercer('bytes', '|', context)('a| b|').value as Uint8Array[];
    expect(pieces.map((piece) => new TextDecoder().decode(piece))).toEqual(['a', ' b', '']);
  });

  it('refuses an empty numeric piece and a missing list element', () => {
    expect(codeOf(() => cellCoercer('int64', ',', context)('1,,2'))).toBe('FEATURE_TYPE');
    expect(codeOf(() => int64([1, null]))).toBe('FEATURE_TYPE');
    expect(codeOf(() => int64([[1]]))).toBe('FEATURE_TYPE');
  });

  it('an empty array is a present, empty list', () => {
    expect(float([])).toEqual({ kind: 'float', value: [] });
  });

  it('passes a Feature of the same kind (or no kind) through and refuses another kind', () => {
    const feature = { kind: 'int64', value: [1n] } as const;
    expect(int64(feature)).toBe(feature);
    expect(float({ kind: 'none', value: [] })).toEqual({ kind: 'none', value: [] });
    expect(codeOf(() => float(feature))).toBe('FEATURE_TYPE');
  });
});
