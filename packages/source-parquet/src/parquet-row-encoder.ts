import { TfpipeError } from '@tfpipe/core';
import type { Example, Position } from '@tfpipe/core';
import { compileCellEncoder, type CellEncoder } from '@tfpipe/core/internal';
import type { ParquetFeatureSpec } from './parquet-example-spec.js';
import type { LeafColumn } from './map-parquet-schema.js';
import type { SliceColumn } from './read-slice.js';

/**
 * Encodes row `index` of a slice's decoded columns (see {@link ParquetRowEncoder.forColumns}).
 * @throws TfpipeError as `buildExamples` throws it for this row, with the row's position
 */
export type ColumnRowEncoder = (
  columns: readonly SliceColumn[],
  index: number,
  position: () => Position,
) => Example;

/** The spec of {@link ParquetRowEncoder}: `parquetExampleSpec`'s, as `buildExamples` would take it. */
export type ParquetRowSpec = Readonly<Record<string, ParquetFeatureSpec>>;

/**
 * Encodes the Parquet source's rows straight to Examples by the spec `buildExamples` would be given:
 * the source maps each row into one reused object ({@link row}) instead of a new row object, and its
 * cells go to the same encoder `buildExamples` compiles, so the bytes and the errors are the same
 * (errors get the row's position, as `buildExamples` adds it).
 */
export class ParquetRowEncoder {
  /** The row being encoded, overwritten for each row: every column mapper writes all its features. */
  readonly row: Record<string, unknown> = {};
  readonly #fields: readonly string[];
  readonly #cells: unknown[];
  readonly #encode: CellEncoder;

  /** @throws TfpipeError `INVALID_OPTION` for a spec `buildExamples` would refuse */
  constructor(spec: ParquetRowSpec) {
    this.#fields = Object.keys(spec).map((name) => spec[name]!.field);
    this.#cells = new Array<unknown>(this.#fields.length).fill(undefined);
    // The stage name buildExamples gives its cell errors.
    this.#encode = compileCellEncoder(spec, { stage: 'buildExamples' });
  }

  /**
   * Whether rows of `spec` can be encoded this way: a feature read from `__proto__` would set the
   * reused object's prototype, where a new row per row starts afresh each time.
   */
  static handles(spec: ParquetRowSpec): boolean {
    return Object.keys(spec).every((name) => spec[name]!.field !== '__proto__');
  }

  /**
   * An encoder that takes each row's cells straight from the decoded columns, with no row object,
   * when every column read is a plain leaf (a {@link LeafColumn}) and every field of the spec is one
   * of their features; otherwise undefined (map rows into {@link row} and {@link encode} them).
   * Each column is converted in order, as the column mappers would, so the cells, the bytes and
   * the errors are those of {@link encode}.
   * @param columns - the columns read, in the order of the decoded slice's columns
   * @param leaves - the file's plain leaf columns, by column name
   */
  forColumns(
    columns: readonly string[],
    leaves: ReadonlyMap<string, LeafColumn>,
  ): ColumnRowEncoder | undefined {
    const fields = this.#fields;
    // A field read by two features (not a spec parquetExampleSpec gives) goes the row object's way.
    if (new Set(fields).size !== fields.length) return undefined;
    const converts: ((value: unknown) => unknown)[] = [];
    const targets: number[] = [];
    const covered = new Set<number>();
    for (const column of columns) {
      const leaf = leaves.get(column);
      if (leaf === undefined) return undefined;
      converts.push(leaf.convert);
      const target = fields.indexOf(leaf.feature);
      targets.push(target);
      if (target !== -1) covered.add(target);
    }
    if (covered.size !== fields.length) return undefined;
    const cells = this.#cells;
    const encode = this.#encode;
    const count = columns.length;
    return (decoded, index, position) => {
      for (let column = 0; column < count; column++) {
        const { values, offset } = decoded[column]!;
        const value = values[offset + index];
        const cell = value === null || value === undefined ? null : converts[column]!(value);
        const target = targets[column]!;
        if (target !== -1) cells[target] = cell;
      }
      try {
        return encode(cells);
      } catch (error) {
        throw TfpipeError.is(error) ? error.withPosition(position()) : error;
      }
    };
  }

  /**
   * The Example of the row in {@link row}.
   * @param position - the row's position, asked for only when a cell fails
   * @throws TfpipeError as `buildExamples` throws it for this row, with the row's position
   */
  encode(position: () => Position): Example {
    const fields = this.#fields;
    const cells = this.#cells;
    const row = this.row;
    for (let index = 0; index < fields.length; index++) cells[index] = row[fields[index]!];
    try {
      return this.#encode(cells);
    } catch (error) {
      throw TfpipeError.is(error) ? error.withPosition(position()) : error;
    }
  }
}
