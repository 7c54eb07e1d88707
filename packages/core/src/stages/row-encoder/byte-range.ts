const EMPTY = new Uint8Array(0);

/**
 * A bytes cell given as a range of a larger buffer, for sources that read cells straight from their
 * input (the CSV byte path): the row encoder copies `source[start, end)` into the row, so the source
 * makes no view per cell. Meant to be reused from row to row: the encoder reads it only while it
 * encodes the row (every other path takes it as the view {@link ByteRange.view} gives).
 */
export class ByteRange {
  #source: Uint8Array = EMPTY;
  #start = 0;
  #end = 0;

  /** The buffer the bytes are in. */
  get source(): Uint8Array {
    return this.#source;
  }

  /** Offset of the first byte in {@link source}. */
  get start(): number {
    return this.#start;
  }

  /** Offset after the last byte in {@link source}. */
  get end(): number {
    return this.#end;
  }

  /**
   * Points the range at `source[start, end)` and returns it.
   * @throws RangeError unless `0 <= start <= end <= source.length` (integers)
   */
  set(source: Uint8Array, start: number, end: number): this {
    if (!(
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      start >= 0 &&
      start <= end &&
      end <= source.length
    )) {
      throw new RangeError(`ByteRange ${start} to ${end} is not within ${source.length} bytes`);
    }
    this.#source = source;
    this.#start = start;
    this.#end = end;
    return this;
  }

  /** The bytes as a view of {@link source} (not a copy). */
  view(): Uint8Array {
    return this.source.subarray(this.start, this.end);
  }
}

/**
 * A number cell given as a holder, for sources that read numbers straight from their input (the CSV
 * byte path's float cells): a number stored into a long-lived cells array is a new heap object per
 * cell (and a write barrier), stored into this holder's field it is not. Meant to be reused from row
 * to row, like {@link ByteRange}: the encoder reads {@link value} only while it encodes the row, and
 * every other path takes the number itself.
 */
export class NumberCell {
  /** The cell's number (NaN until set: it keeps the field a double from the start). */
  value = Number.NaN;
}

/**
 * `cells` with every {@link ByteRange} replaced by its view and every {@link NumberCell} by its
 * number: the same array when there is neither.
 */
export function plainCells(cells: readonly unknown[]): readonly unknown[] {
  let plain: unknown[] | undefined;
  for (let index = 0; index < cells.length; index++) {
    const cell = cells[index];
    if (cell instanceof ByteRange) (plain ??= cells.slice())[index] = cell.view();
    else if (cell instanceof NumberCell) (plain ??= cells.slice())[index] = cell.value;
  }
  return plain ?? cells;
}

/** Copies `source[start, end)` into `target` at `position`; returns the position after it. */
export function copyRange(
  source: Uint8Array,
  start: number,
  end: number,
  target: Uint8Array,
  position: number,
): number {
  const length = end - start;
  // A view plus `set` has a fixed cost that a byte loop beats on the short cells of most tables.
  if (length > 64) {
    target.set(source.subarray(start, end), position);
    return position + length;
  }
  for (let index = 0; index < length; index++) target[position + index] = source[start + index]!;
  return position + length;
}
