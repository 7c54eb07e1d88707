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

type SharedCellReader = (
  row: object,
  cells: unknown[],
  failure: ReadFailure,
  readers: readonly ((row: object) => unknown)[],
) => number;

/**
 * Generated readers by their source text: a spec compiled again (every run of a pipeline) reuses
 * the function V8 has already optimized.
 */
const sharedReaders = new Map<string, SharedCellReader>();
const MAX_CACHED_READERS = 64;

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
return function readCells(row, cells, failure, readers) {
  let read = 0;
  try {
    ${lines.join('\n    ')}
  } catch (error) {
    failure.error = error;
  }
  return read;
};`;
  try {
    let shared = sharedReaders.get(body);
    if (shared === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- field names are JSON string literals
      shared = (new Function(body) as () => SharedCellReader)();
      if (sharedReaders.size >= MAX_CACHED_READERS) sharedReaders.clear();
      sharedReaders.set(body, shared);
    }
    const reader = shared;
    return (row, cells, failure) => reader(row, cells, failure, readers);
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
