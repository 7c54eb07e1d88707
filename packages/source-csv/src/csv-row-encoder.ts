import { TfpipeError } from '@tfpipe/core';
import { compileCellEncoder } from '@tfpipe/core/internal';
import type { CellEncoder } from '@tfpipe/core/internal';
import type { Example } from '@tfpipe/core';
import type { Positioned, RecordErrorPolicy } from '@tfpipe/core/plugin';
import { compileColumnValue } from './cell-converter.js';
import type { CellValueConverter } from './cell-converter.js';
import type { ColumnPlan } from './column-plan.js';
import type { CsvRecord } from './csv-record-reader.js';
import type { CsvColumnSchema, CsvSchema } from './csv-schema.js';
import { CellValueError } from './csv-values.js';

/** The stage CSV value errors name (`csvFeatures` and `csvToExamples` share it). */
export const FEATURES_STAGE = 'csvFeatures';

/**
 * Encodes CSV records as `tf.train.Example`s by a complete schema: each cell converted by its
 * column's rules, the row written by core's `compileCellEncoder`. A cell that does not fit is a
 * `CSV_VALUE` record error (file, line, CSV column, field) under the policy given to {@link encode}.
 * Shared by the text path and the byte path (which converts cells itself and calls {@link encodeCells}).
 */
export class CsvRowEncoder {
  readonly #schema: CsvSchema;
  readonly #names: readonly string[];
  readonly #indexes: readonly number[];
  readonly #encode: CellEncoder;
  readonly #cells: unknown[];
  /** The kept columns' complete specs, in order. */
  readonly columns: readonly CompleteColumn[];
  /** Each kept column's cell converter (text → the value the encoder takes), in order. */
  readonly converters: readonly CellValueConverter[];

  /** @param plan - the columns kept, in order, and where each is in a record's fields */
  constructor(schema: CsvSchema, plan: Pick<ColumnPlan, 'names' | 'indexes'>) {
    this.#schema = schema;
    this.#names = plan.names;
    this.#indexes = plan.indexes;
    const columns = completeColumns(schema, this.#names);
    // The cells are converted here by CSV's rules; core only encodes them (a missing cell is omitted).
    this.columns = columns;
    this.converters = columns.map((column) => compileColumnValue(column));
    // Pairs, not an object: an object would list integer-like column names first, out of cell order.
    this.#encode = compileCellEncoder(
      this.#names.map((name, index) => [name, { kind: columns[index]!.kind }] as const),
      { stage: 'csvToExamples' },
    );
    this.#cells = new Array<unknown>(columns.length).fill(undefined);
  }

  /** The record's Example (positioned), or undefined when `policy` skipped it. */
  encode(record: CsvRecord, policy: RecordErrorPolicy): Positioned<Example> | undefined {
    const cells = this.#cells;
    const converters = this.converters;
    const indexes = this.#indexes;
    const fields = record.fields;
    const count = converters.length;
    let index = 0;
    try {
      for (; index < count; index++) cells[index] = converters[index]!(fields[indexes[index]!]!);
    } catch (error) {
      if (!(error instanceof CellValueError)) throw error;
      policy.handle(csvValueError(this.#schema, this.#names, this.#indexes, record, index, error));
      return undefined;
    }
    return this.encodeCells(cells, { file: record.file, line: record.line, row: record.row }, policy);
  }

  /** Encodes converted cells (one per kept column, in order); undefined when `policy` skipped the row. */
  encodeCells(
    cells: readonly unknown[],
    position: { file: string; line: number; row: number },
    policy: RecordErrorPolicy,
  ): Positioned<Example> | undefined {
    try {
      return this.#encode(cells, position);
    } catch (error) {
      // Cells converted by the column rules always fit; this is the encoder's own check speaking.
      policy.handle(TfpipeError.is(error) ? error.withPosition(position) : error);
      return undefined;
    }
  }
}

/** A column's spec with `missing` settled. */
export type CompleteColumn = CsvColumnSchema & { readonly missing: NonNullable<CsvColumnSchema['missing']> };

/** The schema's columns named in `names`, in that order, with `missing` defaulted to `'omit'`. */
export function completeColumns(schema: CsvSchema, names: readonly string[]): CompleteColumn[] {
  return names.map((name) => {
    const column = schema.columns[name]!;
    return { ...column, missing: column.missing ?? 'omit' };
  });
}

/** The `CSV_VALUE` error of the `index`th kept column's cell (`names`, `indexes`: the column plan's). */
export function csvValueError(
  schema: CsvSchema,
  names: readonly string[],
  indexes: readonly number[],
  record: CsvRecord,
  index: number,
  error: CellValueError,
): TfpipeError {
  const field = names[index]!;
  return new TfpipeError('CSV_VALUE', `bad ${schema.columns[field]!.kind} value`, {
    stage: FEATURES_STAGE,
    position: { file: record.file, line: record.line, row: record.row, column: indexes[index]! + 1, field },
    reason: error.message,
  });
}
