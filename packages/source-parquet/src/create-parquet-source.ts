import { RecordErrorPolicy, attachReport, PositionedRecord } from '@tfpipe/core/plugin';
import { positionOf, TfpipeError } from '@tfpipe/core';
import type { Positioned, Reporter } from '@tfpipe/core/plugin';
import type { Example, Position, RecordErrorOptions, StageReport } from '@tfpipe/core';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { RowValueError, mapParquetSchema } from './map-parquet-schema.js';
import type { ColumnMapper, MappedSchema } from './map-parquet-schema.js';
import { checkParquetReaderOptions } from './parquet-options-schema.js';
import { resolveReadOptions } from './parquet-read-options.js';
import type { ParquetReadOptions, ResolvedReadOptions } from './parquet-read-options.js';
import type { ParquetSchema } from './parquet-schema-types.js';
import { checkPageHeaders, columnChunkRanges } from './check-page-headers.js';
import type { ColumnChunkRange } from './check-page-headers.js';
import { pageCompressors } from './page-compressors.js';
import { parquetError } from './parquet-error.js';
import { planSlices } from './plan-slices.js';
import type { RowSlice } from './plan-slices.js';
import { readParquetFooter, readerMetadata } from './read-parquet-footer.js';
import { checkChunkSizes, readSlice } from './read-slice.js';
import type { SliceColumn } from './read-slice.js';
import type { ColumnRowEncoder, ParquetRowEncoder } from './parquet-row-encoder.js';

/** A row: feature name → bigint, number, Uint8Array, an array of those, or null (missing). */
export type ParquetRow = Record<string, unknown>;

/** A chunk of a Parquet source: a row, or a batch of rows when `batchSize` is set. */
export type ParquetChunk = Positioned<ParquetRow> | Positioned<ParquetRow>[];

/** An open byte source with random access, and how to release it. */
export interface OpenedParquetInput {
  readonly buffer: AsyncBuffer;
  close(): Promise<void>;
}

/** One Parquet file to read: its name (for positions and errors) and how to open it. */
export interface ParquetInput {
  readonly name: string;
  open(): Promise<OpenedParquetInput>;
}

const STAGE = 'parquetSource';
/** Rows enqueued per pull without `batchSize` (the rest of the decoded slice waits, undecoded into rows). */
const ROWS_PER_PULL = 256;

/** A decoded slice whose rows are turned into row objects (or Examples) only as they are handed out. */
interface DecodedSlice {
  readonly reading: Reading;
  readonly slice: RowSlice;
  /** The selected columns' values, in `reading.columns` order. */
  readonly columns: readonly SliceColumn[];
  readonly rows: number;
  next: number;
}

interface OpenFile {
  readonly input: ParquetInput;
  readonly opened: OpenedParquetInput;
  readonly metadata: FileMetaData;
  readonly mapped: MappedSchema;
}

interface Reading extends OpenFile {
  readonly reader: FileMetaData;
  readonly columns: string[];
  readonly mappers: ColumnMapper[];
  /** The encoder's way straight from the columns to Examples, where every column is a plain leaf. */
  readonly columnEncoder: ColumnRowEncoder | undefined;
  readonly slices: RowSlice[];
  sliceIndex: number;
  checkedRowGroup: number;
}

function checkSelection(mapped: MappedSchema, options: ResolvedReadOptions, file: string): void {
  for (const column of options.columns ?? []) {
    if (!mapped.schema.columns.includes(column)) {
      throw new TfpipeError('PARQUET_COLUMN', `no column "${column}"`, {
        stage: STAGE,
        fatal: true,
        position: { file, field: column },
        reason: `the file has ${mapped.schema.columns.map((name) => `"${name}"`).join(', ')}`,
      });
    }
  }
  const [unsupported] = mapped.schema.unsupported;
  if (unsupported !== undefined) {
    throw new TfpipeError('PARQUET_UNSUPPORTED', `column "${unsupported.column}" has no feature form`, {
      stage: STAGE,
      position: { file, field: unsupported.column },
      reason: `${unsupported.reason}; or leave it out with columns`,
    });
  }
}

function checkSameSchema(first: ParquetSchema, firstFile: string, other: ParquetSchema, file: string): void {
  const describe = (schema: ParquetSchema, name: string): string | undefined => {
    const feature = schema.features.find((candidate) => candidate.name === name);
    return feature === undefined ? undefined : `${feature.kind}${feature.list ? ' list' : ''}`;
  };
  const names = new Set([...first.features, ...other.features].map((feature) => feature.name));
  for (const name of names) {
    const expected = describe(first, name);
    const actual = describe(other, name);
    if (expected !== actual) {
      throw new TfpipeError('PARQUET_SCHEMA', 'schema differs from the first file', {
        stage: STAGE,
        position: { file, field: name },
        reason: `"${name}" is ${actual ?? 'absent'} here but ${expected ?? 'absent'} in ${firstFile}`,
      });
    }
  }
}

/**
 * The Parquet source over any inputs (web-standard; the Node and browser `parquetSource` wrap it).
 * Reads footers of every input when the stream starts (so a missing column or a differing schema
 * fails before any row), then decodes one slice when the previous one is handed out: at most one row group (or `decodeRows`
 * rows) is in memory, and only the selected columns are fetched.
 *
 * @param resolveInputs - called once when the stream starts.
 */
export function createParquetSource(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions & { readonly batchSize: number },
): ReadableStream<Positioned<ParquetRow>[]> & Reporter;
export function createParquetSource(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions & { readonly batchSize?: undefined },
): ReadableStream<Positioned<ParquetRow>> & Reporter;
export function createParquetSource(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions,
): ReadableStream<ParquetChunk> & Reporter;
export function createParquetSource(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions,
): ReadableStream<ParquetChunk> & Reporter {
  checkParquetReaderOptions(options);
  return readParquet(resolveInputs, options, undefined) as ReadableStream<ParquetChunk> & Reporter;
}

/** {@link createParquetSource} for options its caller checked already. Internal. */
export function readCheckedParquet(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions,
): ReadableStream<ParquetChunk> & Reporter {
  return readParquet(resolveInputs, options, undefined) as ReadableStream<ParquetChunk> & Reporter;
}

/**
 * {@link createParquetSource} whose rows come out as Examples, encoded by `encoder` in the source, in
 * batches of `batchSize`: for a run in which nothing reads the rows' fields. Internal: the plugin's.
 */
export function createParquetExampleSource(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions & { readonly batchSize: number },
  encoder: ParquetRowEncoder,
): ReadableStream<Example[]> & Reporter {
  return readParquet(resolveInputs, options, encoder) as ReadableStream<Example[]> & Reporter;
}

function readParquet(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions,
  encoder: ParquetRowEncoder | undefined,
): ReadableStream<ParquetChunk | Example[]> & Reporter {
  const resolved = resolveReadOptions(options);
  const policy = new RecordErrorPolicy(options);
  const compressors = pageCompressors(resolved.maxPageBytes);
  let inputs: readonly ParquetInput[] = [];
  let inputIndex = 0;
  let firstSchema: ParquetSchema | undefined;
  let firstFile: OpenFile | undefined;
  let current: Reading | undefined;
  let records = 0;
  let bytes = 0;
  let rowGroupsRead = 0;
  let started: Promise<void> | undefined;

  const openFile = async (input: ParquetInput): Promise<OpenFile> => {
    const opened = await input.open();
    try {
      // Set once the footer is read: every column chunk a read holds whole has its page headers checked.
      let chunks: readonly ColumnChunkRange[] = [];
      const counting: AsyncBuffer = {
        byteLength: opened.buffer.byteLength,
        slice: (start, end) => {
          const rangeError = checkRange(start, end, opened.buffer.byteLength, input.name);
          // hyparquet may start several reads and await only some: each rejection is marked handled so
          // it is not reported as unhandled, while whoever awaits it still gets the error.
          const read =
            rangeError !== undefined
              ? Promise.reject(rangeError)
              : Promise.resolve(opened.buffer.slice(start, end)).then((result) => {
                  bytes += result.byteLength;
                  const pageError = checkPageHeaders(
                    new Uint8Array(result),
                    start,
                    chunks,
                    input.name,
                    resolved.maxPageBytes,
                  );
                  if (pageError !== undefined) throw pageError;
                  return result;
                });
          read.catch(() => undefined);
          return read;
        },
      };
      const metadata = await readParquetFooter(counting, input.name);
      chunks = columnChunkRanges(metadata);
      let mapped: MappedSchema;
      try {
        mapped = mapParquetSchema(metadata, resolved);
      } catch (error) {
        // hyparquet's schema tree throws plain TypeErrors on a schema that claims more children than it has.
        throw parquetError(error, 'invalid schema in the footer', { file: input.name });
      }
      checkSelection(mapped, resolved, input.name);
      return { input, opened: { buffer: counting, close: () => opened.close() }, metadata, mapped };
    } catch (error) {
      await opened.close();
      throw error;
    }
  };

  const startReading = (file: OpenFile): Reading => {
    const columns = [...(resolved.columns ?? file.mapped.mappers.keys())];
    return {
      ...file,
      reader: readerMetadata(file.metadata),
      columns,
      mappers: columns.map((column) => file.mapped.mappers.get(column) as ColumnMapper),
      columnEncoder: encoder?.forColumns(columns, file.mapped.leaves),
      slices: planSlices(file.metadata, resolved),
      sliceIndex: 0,
      checkedRowGroup: -1,
    };
  };

  const closeCurrent = async (): Promise<void> => {
    const open = current ?? firstFile;
    current = undefined;
    firstFile = undefined;
    await open?.opened.close();
  };

  /** The next row of a decoded slice, or undefined when a bad value skipped it (under `onError: 'skip'`). */
  const mapRow = (decoded: DecodedSlice): Positioned<ParquetRow> | undefined => {
    const { reading, slice } = decoded;
    const rowIndex = slice.start + decoded.next;
    const row = new PositionedRecord(reading.input.name, rowIndex, -1, slice.rowGroup, rowIndex);
    return mapInto(decoded, row as unknown as ParquetRow)
      ? (row as unknown as Positioned<ParquetRow>)
      : undefined;
  };

  /**
   * Maps the next row of a decoded slice into `row`; false when a bad value skipped it (under
   * `onError: 'skip'`).
   */
  const mapInto = (decoded: DecodedSlice, row: ParquetRow): boolean => {
    const { reading, slice } = decoded;
    const index = decoded.next++;
    const columns = decoded.columns;
    const rowIndex = slice.start + index;
    const file = reading.input.name;
    const mappers = reading.mappers;
    try {
      for (let column = 0; column < mappers.length; column++) {
        const { values, offset } = columns[column] as SliceColumn;
        (mappers[column] as ColumnMapper)(values[offset + index], row);
      }
    } catch (error) {
      if (!(error instanceof RowValueError)) throw error;
      policy.handle(
        new TfpipeError('PARQUET_UNSUPPORTED', 'value has no feature form', {
          stage: STAGE,
          position: {
            file,
            rowGroup: slice.rowGroup,
            row: rowIndex,
            recordIndex: rowIndex,
            field: error.field,
          },
          reason: error.reason,
        }),
      );
      return false;
    }
    return true;
  };

  /** The next row of a decoded slice as an Example, or undefined when an error skipped it. */
  const encodeRow = (decoded: DecodedSlice, rowEncoder: ParquetRowEncoder): Example | undefined => {
    const { reading, slice } = decoded;
    const rowIndex = slice.start + decoded.next;
    const position = (): Position =>
      positionOf(new PositionedRecord(reading.input.name, rowIndex, -1, slice.rowGroup, rowIndex))!;
    const columnEncoder = reading.columnEncoder;
    if (columnEncoder !== undefined) {
      // Plain leaf columns: no value can be refused by a mapper, and no row object is needed.
      records++;
      try {
        return columnEncoder(decoded.columns, decoded.next++, position);
      } catch (error) {
        policy.handle(error);
        return undefined;
      }
    }
    if (!mapInto(decoded, rowEncoder.row)) return undefined;
    // Counted as read, as a row handed to buildExamples was, whether or not it encodes.
    records++;
    try {
      return rowEncoder.encode(position);
    } catch (error) {
      policy.handle(error);
      return undefined;
    }
  };

  /** Decodes the next slice that has rows; undefined when every input is done. */
  const nextSlice = async (): Promise<DecodedSlice | undefined> => {
    for (;;) {
      if (current === undefined) {
        if (firstFile !== undefined) {
          current = startReading(firstFile);
          firstFile = undefined;
        } else {
          const input = inputs[inputIndex];
          if (input === undefined) return undefined;
          const file = await openFile(input);
          if (firstSchema !== undefined)
            checkSameSchema(firstSchema, inputs[0]?.name ?? '', file.mapped.schema, input.name);
          current = startReading(file);
        }
        inputIndex++;
      }
      const reading = current;
      const slice = reading.slices[reading.sliceIndex++];
      if (slice === undefined) {
        await closeCurrent();
        continue;
      }
      if (slice.rowGroup !== reading.checkedRowGroup) {
        checkChunkSizes(
          reading.metadata,
          reading.columns,
          slice.rowGroup,
          resolved.maxColumnChunkBytes,
          reading.input.name,
        );
        reading.checkedRowGroup = slice.rowGroup;
        rowGroupsRead++;
      }
      const { columns, rows } = await readSlice(
        reading.opened.buffer,
        reading.reader,
        reading.columns,
        slice,
        reading.input.name,
        compressors,
      );
      if (rows > 0) return { reading, slice, columns, rows, next: 0 };
    }
  };

  const openInputs = async (): Promise<void> => {
    try {
      inputs = await resolveInputs();
      for (const [index, input] of inputs.entries()) {
        const file = await openFile(input);
        if (index === 0) {
          firstSchema = file.mapped.schema;
          firstFile = file;
        } else {
          await file.opened.close();
          checkSameSchema(
            firstSchema as ParquetSchema,
            inputs[0]?.name ?? '',
            file.mapped.schema,
            input.name,
          );
        }
      }
    } catch (error) {
      await closeCurrent();
      throw error;
    }
  };

  /** The slice being handed out; rows past `next` are still raw arrays. */
  let decoded: DecodedSlice | undefined;
  /** The current slice, decoding the next one when it is used up; undefined at the end. */
  const currentSlice = async (): Promise<DecodedSlice | undefined> => {
    if (decoded !== undefined && decoded.next < decoded.rows) return decoded;
    decoded = undefined;
    decoded = await nextSlice();
    return decoded;
  };
  const batchSize = resolved.batchSize;
  // Without batchSize: up to ROWS_PER_PULL rows per pull, one per chunk (with highWaterMark 0 pull
  // runs only while a read waits, so a slice is decoded only once the previous one is handed out).
  // With it: one batch of batchSize rows per pull, which may span slices.
  const perPull = batchSize ?? ROWS_PER_PULL;
  const pull = async (
    controller: ReadableStreamDefaultController<ParquetChunk | Example[]>,
  ): Promise<void> => {
    const rows: (Positioned<ParquetRow> | Example)[] = [];
    let ended = false;
    while (rows.length < perPull) {
      const source = await currentSlice();
      if (source === undefined) {
        ended = true;
        break;
      }
      const end = Math.min(source.rows, source.next + perPull - rows.length);
      while (source.next < end) {
        const row = encoder === undefined ? mapRow(source) : encodeRow(source, encoder);
        if (row !== undefined) rows.push(row);
      }
      // Unbatched, one slice per pull is enough: hand out what it gave.
      if (batchSize === undefined && rows.length > 0) break;
    }
    // encodeRow counts its rows itself (those that fail to encode were read).
    if (encoder === undefined) records += rows.length;
    if (batchSize !== undefined) {
      if (rows.length > 0) controller.enqueue(rows as Positioned<ParquetRow>[] | Example[]);
    } else {
      for (const row of rows) controller.enqueue(row as Positioned<ParquetRow>);
    }
    if (ended) controller.close();
  };

  const stream = new ReadableStream<ParquetChunk | Example[]>(
    {
      start() {
        started = openInputs();
        return started;
      },
      async pull(controller) {
        try {
          await pull(controller);
        } catch (error) {
          await closeCurrent();
          throw error;
        }
      },
      async cancel() {
        decoded = undefined;
        // cancel can come while start is still opening files: let it finish, then close them
        await started?.catch(() => undefined);
        await closeCurrent();
      },
    },
    { highWaterMark: 0 },
  );

  return attachReport(stream, (): StageReport => ({
    stage: STAGE,
    records,
    skipped: policy.skipped,
    skippedErrors: policy.errors,
    bytes,
    details: { schema: firstSchema, files: inputs.length, rowGroups: rowGroupsRead },
  }));
}

/**
 * A corrupt footer or page header can make hyparquet ask for byte ranges that are NaN, fractional,
 * reversed or past the end: `Blob.slice` aborts the whole Node process on those, and a positioned file
 * read returns nothing (a column read as nulls). Every range is checked before any reader sees it;
 * a bad one is the `PARQUET_FORMAT` error returned.
 */
function checkRange(
  start: number,
  end: number | undefined,
  size: number,
  file: string,
): TfpipeError | undefined {
  const last = end ?? size;
  if (
    Number.isSafeInteger(start) &&
    Number.isSafeInteger(last) &&
    start >= 0 &&
    start <= last &&
    last <= size
  ) {
    return undefined;
  }
  return new TfpipeError('PARQUET_FORMAT', 'corrupt file', {
    stage: 'parquetSource',
    position: { file, ...(Number.isSafeInteger(start) && start >= 0 ? { byteOffset: start } : {}) },
    reason: `a footer or page header points at bytes ${String(start)}..${String(end)} of a ${size}-byte file`,
  });
}
