import type { Feature } from '../../model/feature.js';
import { cellError, preview } from './cell-context.js';
import type { CellContext } from './cell-context.js';
import { bytesValue } from './coerce-bytes.js';
import { floatValue } from './coerce-float.js';
import { int64Value } from './coerce-int64.js';
import type { ValueKind } from './example-spec.js';

/** Converts one present (non-missing) cell into a Feature of a fixed kind. */
export type CellCoercer = (cell: unknown) => Feature;

const FEATURE_KINDS = new Set(['bytes', 'float', 'int64', 'none']);

/**
 * Compiles the conversion of a cell for one feature: a scalar becomes a one-value list, an array or
 * a typed array a list, a string is split on `split` when given, and a ready Feature passes through
 * when its kind matches (a kind-less Feature always does).
 */
export function cellCoercer(kind: ValueKind, split: string | undefined, context: CellContext): CellCoercer {
  const scalar = kind === 'int64' ? int64Value : kind === 'float' ? floatValue : bytesValue;
  const list = (values: readonly unknown[]): Feature => {
    const out = new Array<unknown>(values.length);
    for (let index = 0; index < values.length; index++) {
      const value = values[index];
      if (value === null || value === undefined || Array.isArray(value)) {
        throw cellError('FEATURE_TYPE', `list element ${index} is ${preview(value)}`, context);
      }
      out[index] = scalar(value, context);
    }
    return { kind, value: out } as Feature;
  };
  return (cell) => {
    if (typeof cell === 'string') {
      if (split !== undefined) return list(cell.split(split));
      return { kind, value: [scalar(cell, context)] } as Feature;
    }
    if (typeof cell !== 'object' || cell === null) return { kind, value: [scalar(cell, context)] } as Feature;
    if (Array.isArray(cell)) return list(cell);
    if (ArrayBuffer.isView(cell) && !(cell instanceof DataView)) {
      if (kind === 'bytes') return { kind, value: [bytesValue(cell, context)] };
      if (kind === 'float' && cell instanceof Float32Array) return { kind, value: cell };
      return list(Array.from(cell as unknown as ArrayLike<unknown>));
    }
    if (isFeature(cell)) {
      if (cell.kind === kind || cell.kind === 'none') return cell;
      throw cellError('FEATURE_TYPE', `a ${cell.kind} Feature was given for a ${kind} feature`, context);
    }
    return { kind, value: [scalar(cell, context)] } as Feature;
  };
}

function isFeature(value: object): value is Feature {
  const kind = (value as { kind?: unknown }).kind;
  return typeof kind === 'string' && FEATURE_KINDS.has(kind) && 'value' in value;
}
