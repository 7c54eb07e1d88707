import { RecordErrorPolicy, TfpipeError, attachReport, withPosition } from '@tfpipe/core';
import type { Positioned, RecordErrorOptions, Reporter, StageReport } from '@tfpipe/core';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { RowValueError, mapParquetSchema } from './map-parquet-schema.js';
import type { ColumnMapper, MappedSchema } from './map-parquet-schema.js';
import { resolveReadOptions } from './parquet-read-options.js';
import type { ParquetReadOptions, ResolvedReadOptions } from './parquet-read-options.js';
import type { ParquetSchema } from './parquet-schema-types.js';
import { planSlices } from './plan-slices.js';
import type { RowSlice } from './plan-slices.js';
import { readParquetFooter, readerMetadata } from './read-parquet-footer.js';
import { checkChunkSizes, readSlice } from './read-slice.js';

/** A row: feature name → bigint, number, Uint8Array, an array of those, or null (missing). */
export type ParquetRow = Record<string, unknown>;

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
/** Rows enqueued per pull (the rest of the decoded slice waits in our own buffer). */
const BATCH_ROWS = 256;

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
 * fails before any row), then decodes one slice per pull: at most one row group (or `batchSize`
 * rows) is in memory, and only the selected columns are fetched.
 *
 * @param resolveInputs - called once when the stream starts.
 */
export function createParquetSource(
  resolveInputs: () => Promise<readonly ParquetInput[]>,
  options: ParquetReadOptions & RecordErrorOptions,
): ReadableStream<Positioned<ParquetRow>> & Reporter {
  const resolved = resolveReadOptions(options);
  const policy = new RecordErrorPolicy(options);
  let inputs: readonly ParquetInput[] = [];
  let inputIndex = 0;
  let firstSchema: ParquetSchema | undefined;
  let firstFile: OpenFile | undefined;
  let current: Reading | undefined;
  let records = 0;
  let bytes = 0;
  let rowGroupsRead = 0;
  let started: Promise<void> | undefined;
  let pending: Positioned<ParquetRow>[] = [];
  let pendingIndex = 0;

  const openFile = async (input: ParquetInput): Promise<OpenFile> => {
    const opened = await input.open();
    try {
      const counting: AsyncBuffer = {
        byteLength: opened.buffer.byteLength,
        slice: async (start, end) => {
          const result = await opened.buffer.slice(start, end);
          bytes += result.byteLength;
          return result;
        },
      };
      const metadata = await readParquetFooter(counting, input.name);
      let mapped: MappedSchema;
      try {
        mapped = mapParquetSchema(metadata, resolved);
      } catch (error) {
        throw TfpipeError.is(error) ? error.withPosition({ file: input.name }) : error;
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

  const mapRows = (reading: Reading, slice: RowSlice, rawRows: unknown[][]): Positioned<ParquetRow>[] => {
    const file = reading.input.name;
    const rows: Positioned<ParquetRow>[] = [];
    for (let index = 0; index < rawRows.length; index++) {
      const raw = rawRows[index] as unknown[];
      const row: ParquetRow = {};
      const rowIndex = slice.start + index;
      try {
        for (let column = 0; column < reading.mappers.length; column++)
          (reading.mappers[column] as ColumnMapper)(raw[column], row);
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
        continue;
      }
      rows.push(withPosition(row, { file, rowGroup: slice.rowGroup, row: rowIndex, recordIndex: rowIndex }));
    }
    return rows;
  };

  /** Decodes the next slice that yields rows; undefined when every input is done. */
  const nextRows = async (): Promise<Positioned<ParquetRow>[] | undefined> => {
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
      const rawRows = await readSlice(
        reading.opened.buffer,
        reading.reader,
        reading.columns,
        slice,
        reading.input.name,
      );
      const rows = mapRows(reading, slice, rawRows);
      if (rows.length > 0) return rows;
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

  const stream = new ReadableStream<Positioned<ParquetRow>>(
    {
      start() {
        started = openInputs();
        return started;
      },
      async pull(controller) {
        try {
          // With highWaterMark 0 pull runs only while a read is waiting: a slice is decoded only when
          // the consumer has taken every row of the previous one.
          if (pendingIndex >= pending.length) {
            const rows = await nextRows();
            if (rows === undefined) {
              controller.close();
              return;
            }
            pending = rows;
            pendingIndex = 0;
          }
          // Hand rows over BATCH_ROWS at a time: Node's stream queue shifts an array, so queueing a
          // whole row group at once would cost quadratic time.
          const end = Math.min(pending.length, pendingIndex + BATCH_ROWS);
          records += end - pendingIndex;
          for (; pendingIndex < end; pendingIndex++) controller.enqueue(pending[pendingIndex]);
          if (pendingIndex >= pending.length) pending = [];
        } catch (error) {
          await closeCurrent();
          throw error;
        }
      },
      async cancel() {
        pending = [];
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
