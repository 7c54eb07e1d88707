import type { CompiledEntry } from './compile-feature.js';

/** Where {@link CellReader} leaves the error of the read that threw. */
export interface ReadFailure {
  error: unknown;
}

/**
 * Reads a row's cells (in spec order) into `cells`; returns how many were read. Fewer than all means
 * the next read threw (a computed value, a getter), and its error is in `failure.error`.
 */
export type CellReader = (row: object, cells: unknown[], failure: ReadFailure) => number;

/**
 * The cell reader of a spec. One shared `row[field]` site sees every field name and goes
 * megamorphic (about a tenth of a tabular row's cost), so the reader is generated with one property
 * site per field (`row["age"]`, the same lookup); computed values are called in place, in order.
 * Where code cannot be generated (a Content-Security-Policy without `unsafe-eval`), a loop does the same.
 */
export function compileCellReader(entries: readonly CompiledEntry[]): CellReader {
  const readers = entries.map((entry) => entry.read);
  const lines = entries.map((entry, index) =>
    (entry.options as { value?: unknown }).value === undefined
      ? `cells[${index}] = row[${JSON.stringify(entry.context.field)}]; read++;`
      : `cells[${index}] = readers[${index}](row); read++;`,
  );
  const body = `'use strict';
return function readCells(row, cells, failure) {
  let read = 0;
  try {
    ${lines.join('\n    ')}
  } catch (error) {
    failure.error = error;
  }
  return read;
};`;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- field names are JSON string literals
    const factory = new Function('readers', body) as (readers: unknown) => CellReader;
    return factory(readers);
  } catch {
    return (row, cells, failure) => {
      let read = 0;
      try {
        for (; read < readers.length; read++) cells[read] = readers[read]!(row);
      } catch (error) {
        failure.error = error;
      }
      return read;
    };
  }
}
