import { POSITION } from '@tfpipe/core/plugin';
import type { Position } from '@tfpipe/core';

/**
 * The base of every row `parquetSource` emits: it keeps where the row was (file, row group, row) in
 * private fields and builds the `{ file, rowGroup, row, recordIndex }` position only when someone
 * asks for it (`positionOf(row)`, i.e. on an error), instead of a `defineProperty` and a position
 * object per row. Like core's `withPosition`, the position is invisible to `Object.keys`, JSON and
 * spreads. Features are added as own properties in column order, the same for every row of a file,
 * so V8 gives the rows one hidden class.
 */
export class ParquetPositioned {
  readonly #file: string;
  readonly #rowGroup: number;
  readonly #row: number;
  #position: Position | undefined;

  constructor(file: string, rowGroup: number, row: number) {
    this.#file = file;
    this.#rowGroup = rowGroup;
    this.#row = row;
  }

  /** The row's position, built on first use. */
  get [POSITION](): Position {
    return (this.#position ??= {
      file: this.#file,
      rowGroup: this.#rowGroup,
      row: this.#row,
      recordIndex: this.#row,
    });
  }
}
