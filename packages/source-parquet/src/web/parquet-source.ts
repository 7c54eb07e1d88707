import { TfpipeError } from '@tfpipe/core';
import type { Positioned, Reporter } from '@tfpipe/core/plugin';
import type { AsyncBuffer } from 'hyparquet';
import { asyncBufferFromBlob, isAsyncBuffer, isBlob } from '../blob-async-buffer.js';
import { readCheckedParquet } from '../create-parquet-source.js';
import { checkParquetBufferOptions } from '../parquet-options-schema.js';
import type { ParquetChunk, ParquetInput, ParquetRow } from '../create-parquet-source.js';
import type { ParquetReadOptions } from '../parquet-read-options.js';

/** Options of the browser `parquetSource`: one file with random access, plus the read options. */
export interface ParquetBufferSourceOptions extends ParquetReadOptions {
  /** The Parquet bytes: a `Blob`/`File` (read slice by slice), an `AsyncBuffer` or an `ArrayBuffer`. */
  readonly file: AsyncBuffer | Blob;
  /**
   * The name positions and errors give the file.
   * @default the File's name, else 'input.parquet'
   */
  readonly name?: string;
}

/** One input over an AsyncBuffer or Blob; closing it releases nothing (the caller owns the bytes). */
export function bufferInput(file: AsyncBuffer | Blob, name: string | undefined): ParquetInput {
  if (!isBlob(file) && !isAsyncBuffer(file)) {
    throw new TfpipeError('INVALID_OPTION', 'file must be a Blob, a File, an ArrayBuffer or an AsyncBuffer', {
      stage: 'parquetSource',
      fatal: true,
      position: { field: 'file' },
    });
  }
  const buffer = isBlob(file) ? asyncBufferFromBlob(file) : file;
  const fileName =
    name ?? (isBlob(file) && typeof (file as File).name === 'string' ? (file as File).name : 'input.parquet');
  return { name: fileName, open: () => Promise.resolve({ buffer, close: () => Promise.resolve() }) };
}

/**
 * Reads a Parquet file held in a `Blob`, `File` or `AsyncBuffer` (browser-safe: no `node:*`) as a
 * stream of rows keyed by feature name, each carrying its position (`file`, `rowGroup`, `row`,
 * `recordIndex`); with `batchSize`, as arrays of rows. See the Node entry for paths, directories and globs.
 */
export function parquetSource(
  options: ParquetBufferSourceOptions & { readonly batchSize: number },
): ReadableStream<Positioned<ParquetRow>[]> & Reporter;
export function parquetSource(
  options: ParquetBufferSourceOptions & { readonly batchSize?: undefined },
): ReadableStream<Positioned<ParquetRow>> & Reporter;
export function parquetSource(options: ParquetBufferSourceOptions): ReadableStream<ParquetChunk> & Reporter;
export function parquetSource(options: ParquetBufferSourceOptions): ReadableStream<ParquetChunk> & Reporter {
  checkParquetBufferOptions(options);
  const input = bufferInput(options.file, options.name);
  return readCheckedParquet(() => Promise.resolve([input]), options);
}
