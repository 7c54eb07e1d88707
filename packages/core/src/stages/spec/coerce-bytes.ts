import { cellError, preview } from './cell-context.js';
import type { CellContext } from './cell-context.js';

const encoder = new TextEncoder();

/**
 * One bytes value from a cell: a string (UTF-8), a `Uint8Array` (as is, not copied), any other
 * `ArrayBuffer` view or an `ArrayBuffer` (viewed as bytes), a number or bigint (its decimal text).
 * @throws TfpipeError `FEATURE_TYPE`
 */
export function bytesValue(value: unknown, context: CellContext): Uint8Array {
  if (typeof value === 'string') return utf8(value);
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return utf8(String(value));
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw cellError('FEATURE_TYPE', `${preview(value)} is not a bytes value`, context);
}

/** UTF-8 of a string. Short ASCII strings are copied by hand: cheaper than a `TextEncoder` call. */
export function utf8(text: string): Uint8Array {
  const length = text.length;
  if (length > 64) return encoder.encode(text);
  const out = new Uint8Array(length);
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) return encoder.encode(text);
    out[index] = code;
  }
  return out;
}
