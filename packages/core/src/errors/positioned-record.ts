import { POSITION } from '../contract/plugin-contract.js';
import type { Position } from './tfpipe-error.js';

/**
 * The base of rows a source emits one per record (CSV, Parquet, a plugin's own): it keeps where the
 * record was in private fields and builds the {@link Position} only when someone asks for it
 * (`positionOf(row)`, i.e. on an error), instead of a `defineProperty` and a position object per row.
 * Like `withPosition`, the position is invisible to `Object.keys`, JSON and spreads: private fields
 * and a prototype getter are neither own nor enumerable. Add the row's values as own properties after
 * construction, in the same order for every row of a run, so V8 gives all rows one hidden class.
 */
export class PositionedRecord {
  readonly #file: string;
  readonly #row: number;
  readonly #line: number;
  readonly #rowGroup: number;
  readonly #recordIndex: number;
  #position: Position | undefined;

  /**
   * @param file - the file the record came from
   * @param row - 0-based row of the table
   * @param line - 1-based line the record starts on (text formats); -1 leaves it out @default -1
   * @param rowGroup - 0-based Parquet row group; -1 leaves it out @default -1
   * @param recordIndex - 0-based record of the file, when it is not just `row`'s place; -1 leaves it out @default -1
   */
  constructor(file: string, row: number, line = -1, rowGroup = -1, recordIndex = -1) {
    this.#file = file;
    this.#row = row;
    this.#line = line;
    this.#rowGroup = rowGroup;
    this.#recordIndex = recordIndex;
  }

  /** The record's position, built on first use. */
  get [POSITION](): Position {
    if (this.#position !== undefined) return this.#position;
    const position: { -readonly [Key in keyof Position]: Position[Key] } = { file: this.#file };
    if (this.#line >= 0) position.line = this.#line;
    if (this.#rowGroup >= 0) position.rowGroup = this.#rowGroup;
    position.row = this.#row;
    if (this.#recordIndex >= 0) position.recordIndex = this.#recordIndex;
    return (this.#position = position);
  }
}
