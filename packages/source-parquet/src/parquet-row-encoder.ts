import { TfpipeError } from '@tfpipe/core';
import type { Example, Position } from '@tfpipe/core';
import { compileCellEncoder, type CellEncoder } from '@tfpipe/core/internal';
import type { ParquetFeatureSpec } from './parquet-example-spec.js';

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
