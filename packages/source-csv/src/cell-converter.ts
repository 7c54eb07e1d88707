import { emptyFeature } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import type { CsvColumnSchema } from './csv-schema.js';
import { CellValueError, parseBooleanText, parseFloatText, parseInt64Text } from './csv-values.js';

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

/** Compiles a column schema (complete: kind and missing set, vocabulary built) into a converter. */
export function compileColumn(
  spec: CsvColumnSchema & { readonly missing: NonNullable<CsvColumnSchema['missing']> },
): CellConverter {
  const parseOne = valueParser(spec);
  const { split } = spec;
  const build =
    spec.kind === 'bytes'
      ? (values: unknown[]): Feature => ({ kind: 'bytes', value: values as Uint8Array[] })
      : spec.kind === 'float'
        ? (values: unknown[]): Feature => ({ kind: 'float', value: values as number[] })
        : (values: unknown[]): Feature => ({ kind: 'int64', value: values as bigint[] });
  const convert = (cell: string): Feature =>
    split === undefined ? build([parseOne(cell)]) : build(cell.split(split).map((part) => parseOne(part)));
  const whenEmpty = emptyCell(spec, convert);
  return (cell) => (cell === '' ? whenEmpty() : convert(cell));
}

function valueParser(spec: CsvColumnSchema): (text: string) => unknown {
  if (spec.vocabulary !== undefined && spec.vocabulary !== 'build') {
    const ids = new Map<string, bigint>(spec.vocabulary.map((value, index) => [value, BigInt(index)]));
    return (text) => {
      const id = ids.get(text);
      if (id === undefined) throw new CellValueError(`${JSON.stringify(text)} is not in the vocabulary`);
      return id;
    };
  }
  if (spec.kind === 'int64') return spec.boolean === true ? parseBooleanText : parseInt64Text;
  if (spec.kind === 'float') return parseFloatText;
  return encodeCell;
}

function emptyCell(
  spec: CsvColumnSchema & { readonly missing: string },
  convert: (cell: string) => Feature,
): () => Feature | undefined {
  switch (spec.missing) {
    case 'omit':
      return () => undefined;
    case 'kindless':
      return () => emptyFeature();
    case 'empty':
      return () => ({ kind: spec.kind, value: [] });
    case 'error':
      return () => {
        throw new CellValueError('the cell is empty and the column does not allow missing values');
      };
    default: {
      const values = Array.isArray(spec.default) ? spec.default : [spec.default];
      // Defaults are cell text (or numbers): converted once, by the same rules as cells.
      const parts = values.map((value) => String(value));
      const feature =
        spec.split === undefined || parts.length !== 1 ? joinDefault(parts, convert) : convert(parts[0]!);
      return () => feature;
    }
  }
}

function joinDefault(parts: readonly string[], convert: (cell: string) => Feature): Feature {
  const features = parts.map((part) => convert(part));
  const first = features[0]!;
  const value = features.flatMap((feature) => [...(feature.value as readonly unknown[])]);
  return { kind: first.kind, value } as Feature;
}
