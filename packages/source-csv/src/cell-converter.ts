import { emptyFeature } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import type { CsvColumnSchema } from './csv-schema.js';
import { CellValueError, parseBooleanText, parseFloatText, parseInt64Cell } from './csv-values.js';

/** Converts one cell to its feature; undefined means "omit the feature". @throws CellValueError */
export type CellConverter = (cell: string) => Feature | undefined;

const encoder = new TextEncoder();
/** Bytes cells are encoded into shared slabs (one allocation per 64 KiB, not per cell). */
const SLAB_BYTES = 64 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
let slabOffset = 0;

/** UTF-8 bytes of `text`, a view into a slab. Views are never written again, so sharing is safe. */
export function encodeCell(text: string): Uint8Array {
  const worst = text.length * 3;
  if (slabOffset + worst > slab.length) {
    slab = new Uint8Array(Math.max(SLAB_BYTES, worst));
    slabOffset = 0;
  }
  const { written } = encoder.encodeInto(text, slab.subarray(slabOffset));
  const view = slab.subarray(slabOffset, slabOffset + written);
  slabOffset += written;
  return view;
}

/**
 * Compiles a column schema (complete: kind and missing set, vocabulary built) into a converter: the
 * {@link compileColumnValue} rules, with the values made a Feature's (bigints, UTF-8 bytes).
 */
export function compileColumn(
  spec: CsvColumnSchema & { readonly missing: NonNullable<CsvColumnSchema['missing']> },
): CellConverter {
  const convert = compileColumnValue(spec);
  const { kind } = spec;
  const one: (value: unknown) => unknown =
    kind === 'int64'
      ? (value) => (typeof value === 'bigint' ? value : BigInt(value as number))
      : kind === 'bytes'
        ? (value) => encodeCell(value as string)
        : (value) => value;
  return (cell) => {
    const value = convert(cell);
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return { kind, value: value.map(one) } as Feature;
    // A kindless Feature (`missing: 'kindless'`) is the only object a value converter returns.
    if (typeof value === 'object') return value as Feature;
    return { kind, value: [one(value)] } as Feature;
  };
}

/**
 * Converts one cell to the cell value core's `compileCellEncoder` takes for its feature, which writes the
 * same bytes as the Feature {@link compileColumn} makes: a number for an int64 that is a safe integer
 * (a bigint otherwise), a float or a vocabulary id; the text itself for bytes (UTF-8 encoded by the
 * encoder); an array for a split cell or a default; a ready Feature for `kindless`; undefined to omit.
 * @throws CellValueError
 */
export type CellValueConverter = (cell: string) => unknown;

/** Compiles a column schema (complete, as for {@link compileColumn}) into a {@link CellValueConverter}. */
export function compileColumnValue(
  spec: CsvColumnSchema & { readonly missing: NonNullable<CsvColumnSchema['missing']> },
): CellValueConverter {
  const parseOne = cellValueParser(spec);
  const { split } = spec;
  const values = (text: string): unknown[] =>
    split === undefined ? [parseOne(text)] : text.split(split).map((part) => parseOne(part));
  const convert = split === undefined ? parseOne : values;
  const whenEmpty = emptyCellValue(spec, values);
  return (cell) => (cell === '' ? whenEmpty() : convert(cell));
}

function cellValueParser(spec: CsvColumnSchema): (text: string) => unknown {
  if (spec.vocabulary !== undefined && spec.vocabulary !== 'build') {
    const ids = new Map<string, number>(spec.vocabulary.map((value, index) => [value, index]));
    return (text) => {
      const id = ids.get(text);
      if (id === undefined) throw new CellValueError(`${JSON.stringify(text)} is not in the vocabulary`);
      return id;
    };
  }
  if (spec.kind === 'int64') {
    if (spec.boolean === true) return (text) => Number(parseBooleanText(text));
    return parseInt64Cell;
  }
  if (spec.kind === 'float') return parseFloatText;
  return (text) => text;
}

function emptyCellValue(
  spec: CsvColumnSchema & { readonly missing: string },
  values: (text: string) => unknown[],
): () => unknown {
  switch (spec.missing) {
    case 'omit':
      return () => undefined;
    case 'kindless':
      return () => emptyFeature();
    case 'empty':
      return () => [];
    case 'error':
      return () => {
        throw new CellValueError('the cell is empty and the column does not allow missing values');
      };
    default: {
      // As compileColumn's default: each part converted by the cell rules, the values joined.
      const parts = (Array.isArray(spec.default) ? spec.default : [spec.default]).map((value) =>
        String(value),
      );
      const value = parts.flatMap((part) => values(part));
      return () => value;
    }
  }
}
