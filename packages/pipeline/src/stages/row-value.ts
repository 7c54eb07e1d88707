import { isFeatureValue } from '@tfpipe/core';

const decoder = new TextDecoder('utf-8');

/** How {@link rowValue} returns byte values. */
export interface RowValueOptions {
  /** `'text'` decodes bytes as UTF-8 (for comparisons); `'raw'` keeps the `Uint8Array`. @default 'text' */
  readonly bytes?: 'text' | 'raw';
}

/**
 * The value of field `name` of any row a pipeline carries, as a plain value: a plain row's own
 * property (CSV text, Parquet values), a `Feature` unwrapped (bytes as UTF-8 text, int64 as bigint,
 * floats as numbers; one value as a scalar, several as an array, none as `undefined`), or for an
 * Example the feature of that name (for a SequenceExample, the context feature). `undefined` when
 * the row has no such field or it is empty (`null`, `''`).
 */
export function rowValue(row: unknown, name: string, options: RowValueOptions = {}): unknown {
  if (typeof row !== 'object' || row === null) return undefined;
  let value: unknown = Object.hasOwn(row, name) ? (row as Record<string, unknown>)[name] : undefined;
  if (value === undefined) {
    const features =
      (row as { features?: unknown; context?: unknown }).features ?? (row as { context?: unknown }).context;
    if (typeof features === 'object' && features !== null && Object.hasOwn(features, name)) {
      value = (features as Record<string, unknown>)[name];
    }
  }
  return plain(value, options.bytes ?? 'text');
}

function plain(value: unknown, bytes: 'text' | 'raw'): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (value instanceof Uint8Array) return bytes === 'raw' ? value : decoder.decode(value);
  if (isFeatureValue(value)) {
    const values = Array.from(value.value as ArrayLike<unknown>, (item) => plain(item, bytes));
    if (values.length === 0) return undefined;
    return values.length === 1 ? values[0] : values;
  }
  if (Array.isArray(value)) {
    const values = value.map((item) => plain(item, bytes));
    if (values.length === 0) return undefined;
    return values.length === 1 ? values[0] : values;
  }
  return value;
}
