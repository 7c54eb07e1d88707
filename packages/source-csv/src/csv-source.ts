import { RecordErrorPolicy, attachReport, PositionedRecord } from '@tfpipe/core/plugin';
import type { Positioned, Reporter } from '@tfpipe/core/plugin';
import type { StageReport } from '@tfpipe/core';
import type { ColumnPlan } from './column-plan.js';
import { CsvRecordReader } from './csv-record-reader.js';
import type { CsvRecord } from './csv-record-reader.js';
import { checkCsvSourceOptions } from './csv-options-schema.js';
import { resolveCsvSourceOptions } from './csv-source-options.js';
import type { CsvSourceOptions } from './csv-source-options.js';

/**
 * One CSV data row: column name (after renaming) → the cell's text, exactly as in the file (quotes
 * removed, `""` unescaped, no trimming). Its position `{ file, line, row }` is attached under
 * core's `POSITION` (read it with `positionOf(row)`).
 */
export type CsvRow = Positioned<Record<string, string>>;

/** `csvSource` options that ask for batches: the stream's chunks are arrays of rows. */
export type CsvSourceBatchOptions = CsvSourceOptions & { readonly batchSize: number };

/**
 * Reads CSV files (or a byte stream) as a `ReadableStream` of {@link CsvRow}s, lazily: one 64 KiB
 * chunk of the file is parsed per pull (up to four more are read ahead), and cancelling closes the
 * file. With `batchSize` the chunks are arrays of up to that many rows (each row still positioned),
 * which `buildExamples.batches(spec)` and `tfrecordSink` take as they come, paying the per-chunk cost
 * of a stream once per batch.
 *
 * @throws TfpipeError `INVALID_OPTION` at once for bad options. The stream then errors with
 * `CSV_PARSE`, `CSV_ENCODING`, `CSV_HEADER`, `CSV_EMPTY`, `INPUT_NOT_FOUND` (fatal) or, per record
 * under `onError`, `CSV_ROW_LENGTH` and `CSV_PARSE` (malformed quoting).
 */
export function csvSource(options: CsvSourceBatchOptions): ReadableStream<CsvRow[]> & Reporter;
export function csvSource(
  options: CsvSourceOptions & { readonly batchSize?: undefined },
): ReadableStream<CsvRow> & Reporter;
export function csvSource(options: CsvSourceOptions): ReadableStream<CsvRow | CsvRow[]> & Reporter;
export function csvSource(options: CsvSourceOptions): ReadableStream<CsvRow | CsvRow[]> & Reporter {
  checkCsvSourceOptions(options);
  const resolved = resolveCsvSourceOptions(options);
  const policy = new RecordErrorPolicy(options);
  const reader = new CsvRecordReader(resolved, policy);
  let build: ((record: CsvRecord) => CsvRow) | undefined;
  const rows = new RecordStream<CsvRecord, CsvRow>(
    () => reader.next(),
    (record) => (build ??= rowBuilder(reader.plan!))(record),
    () => reader.cancel(),
    resolved.batchSize,
  );
  const report = (): StageReport => ({
    ...csvReaderReport('csvSource', reader, policy),
    records: rows.records,
  });
  return attachReport(rows.stream, report);
}

/** Rows a source stream queues ahead of its consumer. */
export const ROW_HIGH_WATER_MARK = 256;
/** Batches a source stream queues ahead of its consumer (each up to `batchSize` rows). */
export const BATCH_HIGH_WATER_MARK = 1;

/**
 * The pull loop shared by `csvSource`, `csvFeatures` and `csvToExamples`: takes parsed chunks of
 * items from `next` (a file chunk's worth), turns each into an output row with `build` only when the
 * consumer asks, and enqueues rows one by one or, with `batchSize`, as arrays of `batchSize` rows (the
 * last one shorter). Nothing larger than a batch is ever enqueued.
 */
export class RecordStream<Item, Row> {
  /** Rows handed to the consumer (inside batches too). */
  records = 0;
  readonly stream: ReadableStream<Row | Row[]>;
  #pending: readonly Item[] = [];
  #index = 0;

  constructor(
    next: () => Promise<readonly Item[] | undefined>,
    build: (item: Item) => Row,
    cancel: () => Promise<void>,
    batchSize: number | undefined,
  ) {
    /** Refills `#pending`; false at the end of the input. */
    const refill = async (): Promise<boolean> => {
      const items = await next();
      if (items === undefined) return false;
      this.#pending = items;
      this.#index = 0;
      return true;
    };
    const pullRows = async (controller: ReadableStreamDefaultController<Row | Row[]>): Promise<void> => {
      // Rows are enqueued only as the consumer asks; the parsed chunk waits in `#pending`.
      while ((controller.desiredSize ?? 0) > 0) {
        if (this.#index >= this.#pending.length && !(await refill())) {
          controller.close();
          return;
        }
        controller.enqueue(build(this.#pending[this.#index++]!));
        this.records++;
      }
    };
    const pullBatch = async (controller: ReadableStreamDefaultController<Row | Row[]>): Promise<void> => {
      const size = batchSize!;
      // Sized once: grown by push, a batch's array was reallocated ~10 times (~3 slots per row).
      const batch = new Array<Row>(size);
      let count = 0;
      let ended = false;
      while (count < size) {
        if (this.#index >= this.#pending.length && !(await refill())) {
          ended = true;
          break;
        }
        const pending = this.#pending;
        const end = Math.min(pending.length, this.#index + size - count);
        for (let index = this.#index; index < end; index++) batch[count++] = build(pending[index]!);
        this.#index = end;
      }
      if (count > 0) {
        batch.length = count;
        this.records += count;
        controller.enqueue(batch);
      }
      if (ended) controller.close();
    };
    this.stream = new ReadableStream<Row | Row[]>(
      {
        pull: batchSize === undefined ? pullRows : pullBatch,
        cancel: async () => {
          this.#pending = [];
          await cancel();
        },
      },
      { highWaterMark: batchSize === undefined ? ROW_HIGH_WATER_MARK : BATCH_HIGH_WATER_MARK },
    );
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
    const row = new PositionedRecord(record.file, record.row, record.line) as unknown as Record<
      string,
      string
    >;
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
    return row;
  };
}
