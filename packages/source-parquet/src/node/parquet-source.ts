import type { Example } from '@tfpipe/core';
import type { Positioned, Reporter } from '@tfpipe/core/plugin';
import type { AsyncBuffer } from 'hyparquet';
import { createParquetExampleSource, readCheckedParquet } from '../create-parquet-source.js';
import { checkParquetSourceOptions } from '../parquet-options-schema.js';
import type { ParquetChunk, ParquetInput, ParquetRow } from '../create-parquet-source.js';
import type { ParquetRowEncoder } from '../parquet-row-encoder.js';
import type { ParquetReadOptions } from '../parquet-read-options.js';
import { bufferInput } from '../web/parquet-source.js';
import { openFileAsyncBuffer } from './file-async-buffer.js';
import { resolveParquetInputs } from './resolve-parquet-inputs.js';

/** Options of `parquetSource`: exactly one of `path`, `paths` or `file`, plus the read options. */
export interface ParquetSourceOptions extends ParquetReadOptions {
  /** A Parquet file, a directory of them (Spark's `part-*.parquet`, read recursively) or a glob. */
  readonly path?: string;
  /** Several of what `path` takes, read in this order (each expanded and sorted). */
  readonly paths?: readonly string[];
  /** Parquet bytes with random access: a `Blob`/`File`, an `AsyncBuffer` or an `ArrayBuffer`. */
  readonly file?: AsyncBuffer | Blob;
  /**
   * The name positions and errors give `file`.
   * @default the File's name, else 'input.parquet'
   */
  readonly name?: string;
}

/**
 * Reads Parquet files as a stream of rows keyed by feature name (see the type mapping in the
 * README), each carrying its position `{ file, rowGroup, row, recordIndex }` (`row` and
 * `recordIndex` are the 0-based row index in the file); with `batchSize`, as arrays of up to that
 * many rows (for `buildExamples.batches(spec)`). Decodes one row group (or `decodeRows` rows)
 * at a time and only when the consumer pulls; file handles close at the end, on error and on cancel.
 * The report's `details.schema` holds the mapped feature schema.
 */
export function parquetSource(
  options: ParquetSourceOptions & { readonly batchSize: number },
): ReadableStream<Positioned<ParquetRow>[]> & Reporter;
export function parquetSource(
  options: ParquetSourceOptions & { readonly batchSize?: undefined },
): ReadableStream<Positioned<ParquetRow>> & Reporter;
export function parquetSource(options: ParquetSourceOptions): ReadableStream<ParquetChunk> & Reporter;
export function parquetSource(options: ParquetSourceOptions): ReadableStream<ParquetChunk> & Reporter {
  return readCheckedParquet(inputsOf(options), options);
}

/**
 * {@link parquetSource} whose rows come out as Examples, encoded by `encoder` in the source, in
 * batches of `batchSize`: for a run in which nothing reads the rows' fields. Internal: the plugin's.
 */
export function parquetExampleSource(
  options: ParquetSourceOptions & { readonly batchSize: number },
  encoder: ParquetRowEncoder,
): ReadableStream<Example[]> & Reporter {
  return createParquetExampleSource(inputsOf(options), options, encoder);
}

/** How the source finds its inputs: `file`, or `path` / `paths` expanded when the stream starts. */
function inputsOf(options: ParquetSourceOptions): () => Promise<readonly ParquetInput[]> {
  checkParquetSourceOptions(options);
  if (options.file !== undefined) {
    const input = bufferInput(options.file, options.name);
    return () => Promise.resolve([input]);
  }
  const patterns = options.paths ?? [options.path!];
  return async () => {
    const files = await resolveParquetInputs(patterns);
    return files.map((file) => ({ name: file, open: () => openFileAsyncBuffer(file) }));
  };
}
