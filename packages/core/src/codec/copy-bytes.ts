/** Pieces a misaligned copy into shared memory goes through (see {@link copyBytes}). */
const SCRATCH_BYTES = 64 * 1024;
let scratch: Uint8Array | undefined;

/** Below this many bytes a copy is short enough to take as it comes. */
const SHORT_COPY = 64;

/**
 * Copies `source` into `target` at `offset`, as `target.set(source, offset)` does, at memory speed
 * also when `target` is shared memory (a `SharedArrayBuffer`, as `@tfpipe/sink-tfrecord`'s write
 * buffers are) at another alignment than `source`.
 *
 * Why: V8 copies into shared memory with relaxed atomic stores, word by word only when the two
 * addresses are equally aligned modulo 8, and byte by byte otherwise, several times slower. Such a
 * copy goes through a plain scratch buffer placed at the target's alignment instead: one plain copy,
 * then one aligned one.
 * @throws RangeError when `source` does not fit at `offset`, as `set` does
 */
export function copyBytes(target: Uint8Array, source: Uint8Array, offset: number): void {
  const length = source.length;
  if (length < SHORT_COPY || !isShared(target)) {
    target.set(source, offset);
    return;
  }
  const shift = (target.byteOffset + offset) & 7;
  if (((source.byteOffset - shift) & 7) === 0 || offset + length > target.length || offset < 0) {
    target.set(source, offset);
    return;
  }
  scratch ??= new Uint8Array(SCRATCH_BYTES + 8);
  for (let done = 0; done < length; done += SCRATCH_BYTES) {
    const piece = source.subarray(done, Math.min(length, done + SCRATCH_BYTES));
    scratch.set(piece, shift);
    target.set(scratch.subarray(shift, shift + piece.length), offset + done);
  }
}

// Where shared memory does not exist (a browser page without cross-origin isolation), nothing is shared.
const SHARED: (new (length: number) => ArrayBufferLike) | undefined =
  typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : undefined;

function isShared(target: Uint8Array): boolean {
  return SHARED !== undefined && target.buffer instanceof SHARED;
}
