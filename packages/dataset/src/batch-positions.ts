import type { Position } from '@tfpipe/core';

// A parsed batch keeps where each of its records came from, so a later step on the batch (decoding its
// images) can name the file, record index and byte offset of the record it fails on. Non-enumerable:
// the batch's own keys stay its feature names.
const POSITIONS = Symbol.for('tfpipe.dataset.batchPositions');

/** Gives the position of record `batchIndex` of a batch. */
export type PositionAt = (batchIndex: number) => Position;

/** Records on `batch` how to find the position of each of its records. */
export function attachPositions(batch: object, positionAt: PositionAt): void {
  Object.defineProperty(batch, POSITIONS, { value: positionAt, enumerable: false, configurable: true });
}

/** Where record `batchIndex` of a parsed batch came from, when the batch says. */
export function batchPosition(batch: object, batchIndex: number): Position | undefined {
  const positionAt = (batch as { [POSITIONS]?: PositionAt })[POSITIONS];
  return typeof positionAt === 'function' ? positionAt(batchIndex) : undefined;
}

/**
 * The positions of records that lie back to back in a reused read buffer, copied now (the caller
 * reuses its place objects for the next batch): files, record indexes and byte offsets.
 */
export function copiedPositions(
  places: readonly { readonly file: string; readonly recordIndex: number; readonly byteOffset: number }[],
  count: number,
): PositionAt {
  const files = new Array<string>(count);
  const recordIndexes = new Float64Array(count);
  const byteOffsets = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const place = places[index]!;
    files[index] = place.file;
    recordIndexes[index] = place.recordIndex;
    byteOffsets[index] = place.byteOffset;
  }
  return (batchIndex) => ({
    file: files[batchIndex]!,
    recordIndex: recordIndexes[batchIndex]!,
    byteOffset: byteOffsets[batchIndex]!,
  });
}
