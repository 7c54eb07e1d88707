import type { AsyncBuffer } from 'hyparquet';

/** Random access to a `Blob` (or `File`) as an hyparquet `AsyncBuffer`: each slice reads only its bytes. */
export function asyncBufferFromBlob(blob: Blob): AsyncBuffer {
  return {
    byteLength: blob.size,
    slice: (start, end) => blob.slice(start, end).arrayBuffer(),
  };
}

/** True for a `Blob`/`File` (checked by shape, so a Blob from another realm counts). */
export function isBlob(value: unknown): value is Blob {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Blob).arrayBuffer === 'function' &&
    typeof (value as Blob).size === 'number' &&
    typeof (value as Blob).slice === 'function'
  );
}

/** True for an `AsyncBuffer` (or an `ArrayBuffer`, which is one). */
export function isAsyncBuffer(value: unknown): value is AsyncBuffer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncBuffer).byteLength === 'number' &&
    typeof (value as AsyncBuffer).slice === 'function'
  );
}
