import type { FileHandle } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { CellValue, ColumnCells, ExportColumn } from './export-columns.js';
import { base64, float32Text, floatJson } from './value-text.js';

/** Writes batches of rows to an open file, in one of the export formats. */
export interface RowWriter {
  /** Appends `rows` rows, one entry of cells per column (a Parquet writer makes them one row group). */
  write(cells: readonly ColumnCells[], rows: number, firstRow: number): Promise<void>;
  /** Writes what ends the file (Parquet's footer). */
  finish(): Promise<void>;
  /** Bytes written so far. */
  readonly bytes: number;
}

/** The formats `tfpipe export` writes, by the output's extension. */
export type ExportFormat = 'parquet' | 'csv' | 'jsonl';

const PARQUET_TYPES = {
  int64: 'INT64',
  int32: 'INT32',
  number: 'DOUBLE',
  float32: 'FLOAT',
  string: 'BYTE_ARRAY',
} as const;

type ParquetSchema = ConstructorParameters<typeof ParquetWriter>[0]['schema'];

function parquetSchema(columns: readonly ExportColumn[]): ParquetSchema {
  const schema: ParquetSchema = [{ name: 'root', num_children: columns.length }];
  for (const column of columns) {
    const type = PARQUET_TYPES[column.dtype];
    if (!column.list) {
      schema.push({ name: column.name, type, repetition_type: 'REQUIRED' });
      continue;
    }
    // The three-level LIST of the Parquet format, as Arrow, DuckDB and pandas write and read it.
    schema.push(
      { name: column.name, repetition_type: 'REQUIRED', num_children: 1, converted_type: 'LIST' },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type, repetition_type: 'REQUIRED' },
    );
  }
  return schema;
}

/** Parquet through hyparquet-writer, one row group per batch, each flushed to the file before the next. */
function parquetWriter(handle: FileHandle, columns: readonly ExportColumn[]): RowWriter {
  const buffer = new ByteWriter(1 << 20);
  let bytes = 0;
  const flush = async (): Promise<void> => {
    const chunk = new Uint8Array(buffer.buffer, 0, buffer.index);
    await handle.write(chunk);
    bytes += chunk.length;
    buffer.index = 0;
  };
  const writer = new ParquetWriter({
    writer: buffer,
    schema: parquetSchema(columns),
    createdBy: 'tfpipe export',
  });
  return {
    get bytes() {
      return bytes + buffer.index;
    },
    async write(cells, rows) {
      if (rows === 0) return;
      await writer.write({
        columnData: columns.map((column, index) => ({ name: column.name, data: cells[index] as never })),
        rowGroupSize: rows,
      });
      await flush();
    },
    async finish() {
      await writer.finish();
      await flush();
    },
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const QUOTE = 0x22;

function numberText(value: CellValue, column: ExportColumn): string {
  return column.dtype === 'float32' ? float32Text(value as number) : String(value);
}

/** RFC 4180: a field holding a comma, a quote, CR or LF is quoted, its quotes doubled. */
function csvField(value: Uint8Array): Uint8Array {
  if (!value.some((byte) => byte === 0x2c || byte === QUOTE || byte === 0x0d || byte === 0x0a)) return value;
  const quoted: number[] = [QUOTE];
  for (const byte of value) {
    if (byte === QUOTE) quoted.push(QUOTE);
    quoted.push(byte);
  }
  quoted.push(QUOTE);
  return Uint8Array.from(quoted);
}

function textOfBytes(value: Uint8Array, column: ExportColumn, row: number): string {
  try {
    return decoder.decode(value);
  } catch {
    throw new TfpipeError(
      'FEATURE_TYPE',
      `a list of bytes that are not UTF-8 text has no CSV form (a JSON array of strings); export to .parquet or .jsonl`,
      { stage: 'export', fatal: true, position: { row, field: column.name } },
    );
  }
}

/** A CSV cell as text, or as bytes when it is a byte string (written as it is, never decoded). */
function csvCell(value: CellValue | CellValue[], column: ExportColumn, row: number): string | Uint8Array {
  if (!Array.isArray(value)) {
    if (value instanceof Uint8Array) return csvField(value);
    return numberText(value, column);
  }
  const items = value.map((item) =>
    item instanceof Uint8Array
      ? JSON.stringify(textOfBytes(item, column, row))
      : typeof item === 'bigint'
        ? String(item)
        : floatJson(item, column.dtype === 'float32'),
  );
  const text = `[${items.join(',')}]`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function jsonCell(value: CellValue | CellValue[], column: ExportColumn): string {
  if (Array.isArray(value)) return `[${value.map((item) => jsonCell(item, column)).join(',')}]`;
  if (value instanceof Uint8Array) return `"${base64(value)}"`;
  if (typeof value === 'bigint') return String(value);
  return floatJson(value, column.dtype === 'float32');
}

/** CSV (RFC 4180, CRLF) or JSON Lines, one batch's text written at a time. */
function textWriter(
  handle: FileHandle,
  columns: readonly ExportColumn[],
  format: 'csv' | 'jsonl',
): RowWriter {
  let bytes = 0;
  const put = async (parts: Uint8Array[]): Promise<void> => {
    const chunk = Buffer.concat(parts);
    await handle.write(chunk);
    bytes += chunk.length;
  };
  const header = columns.map((column) => csvField(encoder.encode(column.name)));
  const keys = columns.map((column) => `${JSON.stringify(column.name)}:`);
  const comma = encoder.encode(',');
  const crlf = encoder.encode('\r\n');
  let started = false;
  return {
    get bytes() {
      return bytes;
    },
    async write(cells, rows, firstRow) {
      // Text runs are joined into one string and encoded once; a byte string goes in as it is.
      const parts: Uint8Array[] = [];
      let text = '';
      if (format === 'csv' && !started) {
        parts.push(...header.flatMap((field, index) => (index === 0 ? [field] : [comma, field])), crlf);
      }
      started = true;
      for (let row = 0; row < rows; row++) {
        if (format === 'jsonl') {
          text += `{${columns.map((column, index) => keys[index]! + jsonCell(cells[index]![row]!, column)).join(',')}}\n`;
          continue;
        }
        columns.forEach((column, index) => {
          if (index > 0) text += ',';
          const cell = csvCell(cells[index]![row]!, column, firstRow + row);
          if (typeof cell === 'string') text += cell;
          else {
            parts.push(encoder.encode(text), cell);
            text = '';
          }
        });
        text += '\r\n';
      }
      parts.push(encoder.encode(text));
      await put(parts);
    },
    async finish() {
      // An empty CSV still has its header.
      if (!started && format === 'csv') await this.write([], 0, 0);
    },
  };
}

/** The writer of `format` into `handle`. */
export function rowWriter(
  format: ExportFormat,
  handle: FileHandle,
  columns: readonly ExportColumn[],
): RowWriter {
  return format === 'parquet' ? parquetWriter(handle, columns) : textWriter(handle, columns, format);
}
