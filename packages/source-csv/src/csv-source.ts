import { RecordErrorPolicy, attachReport, withPosition } from '@tfpipe/core';
import type { Positioned, Reporter, StageReport } from '@tfpipe/core';
import type { ColumnPlan } from './column-plan.js';
import { CsvRecordReader } from './csv-record-reader.js';
import type { CsvRecord } from './csv-record-reader.js';
import { resolveCsvSourceOptions } from './csv-source-options.js';
import type { CsvSourceOptions } from './csv-source-options.js';

/**
 * One CSV data row: column name (after renaming) → the cell's text, exactly as in the file (quotes
 * removed, `""` unescaped, no trimming). Its position `{ file, line, row }` is attached under
 * core's `POSITION` (read it with `positionOf(row)`).
 */
export type CsvRow = Positioned<Record<string, string>>;

/**
 * Reads CSV files (or a byte stream) as a `ReadableStream` of {@link CsvRow}s, lazily: one 128 KiB
 * chunk of the file is read per pull, and cancelling closes the file.
 *
 * @throws TfpipeError `INVALID_OPTION` at once for bad options. The stream then errors with
 * `CSV_PARSE`, `CSV_ENCODING`, `CSV_HEADER`, `CSV_EMPTY`, `INPUT_NOT_FOUND` (fatal) or, per record
 * under `onError`, `CSV_ROW_LENGTH` and `CSV_PARSE` (malformed quoting).
 */
export function csvSource(options: CsvSourceOptions): ReadableStream<CsvRow> & Reporter {
  const resolved = resolveCsvSourceOptions(options);
  const policy = new RecordErrorPolicy(options);
  const reader = new CsvRecordReader(resolved, policy);
  let build: ((record: CsvRecord) => CsvRow) | undefined;
  let pending = new RowQueue<CsvRecord>();
  let enqueued = 0;
  const stream = new ReadableStream<CsvRow>(
    {
      async pull(controller) {
        // Rows are enqueued only as the consumer asks; the parsed chunk waits in `pending`.
        while ((controller.desiredSize ?? 0) > 0) {
          if (pending.empty) {
            const batch = await reader.next();
            if (batch === undefined) {
              controller.close();
              return;
            }
            pending = new RowQueue(batch);
          }
          build ??= rowBuilder(reader.plan!);
          controller.enqueue(build(pending.shift()));
          enqueued++;
        }
      },
      cancel: () => reader.cancel(),
    },
    { highWaterMark: ROW_HIGH_WATER_MARK },
  );
  const report = (): StageReport => ({ ...csvReaderReport('csvSource', reader, policy), records: enqueued });
  return attachReport(stream, report);
}

/** Rows a source stream queues ahead of its consumer. */
export const ROW_HIGH_WATER_MARK = 256;

/** A FIFO over one batch, without the O(n) cost of `Array.shift`. */
export class RowQueue<T> {
  #index = 0;
  constructor(readonly items: readonly T[] = []) {}
  get empty(): boolean {
    return this.#index >= this.items.length;
  }
  shift(): T {
    return this.items[this.#index++]!;
  }
}

/** The stage report of a reader: counts, and the delimiter, files and columns in `details`. */
export function csvReaderReport(
  stage: string,
  reader: CsvRecordReader,
  policy: RecordErrorPolicy,
  details: Record<string, unknown> = {},
): StageReport {
  return {
    stage,
    records: reader.records,
    skipped: policy.skipped,
    skippedErrors: [...policy.errors],
    bytes: reader.bytes,
    details: {
      files: [...reader.files],
      ...(reader.delimiter === undefined ? {} : { delimiter: reader.delimiter }),
      ...(reader.plan === undefined ? {} : { columns: [...reader.plan.names] }),
      ...details,
    },
  };
}

/** Makes row objects of one shape (same key order, so V8 shares their hidden class). */
function rowBuilder(plan: ColumnPlan): (record: CsvRecord) => CsvRow {
  const { indexes, names } = plan;
  const count = indexes.length;
  const special = names.includes('__proto__');
  return (record) => {
    const row: Record<string, string> = {};
    const fields = record.fields;
    for (let index = 0; index < count; index++) {
      const value = fields[indexes[index]!]!;
      if (special)
        Object.defineProperty(row, names[index]!, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else row[names[index]!] = value;
    }
    return withPosition(row, { file: record.file, line: record.line, row: record.row });
  };
}
