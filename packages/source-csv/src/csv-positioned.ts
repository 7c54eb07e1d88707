import { POSITION } from '@tfpipe/core/plugin';
import type { Position } from '@tfpipe/core';

/**
 * The base of every row and Example this package emits: it keeps where the record was (file, line,
 * row) in private fields and builds the `{ file, line, row }` position only when someone asks for it
 * (`positionOf(row)`, i.e. on an error). That replaces a `defineProperty` and a position object per
 * row with three field stores. The position stays invisible to `Object.keys`, JSON and spreads, as
 * core's `withPosition` makes it: private fields and a prototype getter are neither own nor enumerable.
 *
 * Column values are added as own properties after construction, in the same order for every row of
 * a run, so V8 gives all rows one hidden class.
 */
export class CsvPositioned {
  readonly #file: string;
  readonly #line: number;
  readonly #row: number;
  #position: Position | undefined;

  constructor(file: string, line: number, row: number) {
    this.#file = file;
    this.#line = line;
    this.#row = row;
  }

  /** The record's position, built on first use. */
  get [POSITION](): Position {
    return (this.#position ??= { file: this.#file, line: this.#line, row: this.#row });
  }
}
