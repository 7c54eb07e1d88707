import { TfpipeError } from '@tfpipe/core';
import type { AsyncBuffer, Compressors, FileMetaData } from 'hyparquet';
import { parquetRead } from 'hyparquet';
import type { RowSlice } from './plan-slices.js';
import { parquetError } from './parquet-error.js';
import { RAW_PARSERS } from './read-parquet-footer.js';

/** One decoded column of a slice: the slice's row `i` is `values[offset + i]`. */
export interface SliceColumn {
  readonly values: ArrayLike<unknown>;
  readonly offset: number;
}

/** The decoded columns of a slice, in `columns` order, and its row count. */
export interface DecodedColumns {
  readonly columns: readonly SliceColumn[];
  readonly rows: number;
}

/** A column's decoded chunk, rows `[start, start + values.length)` of the file. */
interface Chunk {
  readonly values: ArrayLike<unknown>;
  readonly start: number;
}

/**
 * The slice's rows of one column from its decoded chunks: the chunk itself when one holds them all
 * (the usual case: a slice lies within one row group), else a copy. A row no chunk holds reads as
 * `undefined`, as in hyparquet's own row arrays.
 */
function sliceColumn(chunks: readonly Chunk[], slice: RowSlice): SliceColumn {
  for (const chunk of chunks) {
    if (chunk.start <= slice.start && chunk.start + chunk.values.length >= slice.end)
      return { values: chunk.values, offset: slice.start - chunk.start };
  }
  const values = new Array<unknown>(slice.end - slice.start).fill(undefined);
  for (const chunk of chunks) {
    const from = Math.max(slice.start, chunk.start);
    const to = Math.min(slice.end, chunk.start + chunk.values.length);
    for (let row = from; row < to; row++) values[row - slice.start] = chunk.values[row - chunk.start];
  }
  return { values, offset: 0 };
}

async function decode(
  buffer: AsyncBuffer,
  metadata: FileMetaData,
  columns: string[],
  slice: RowSlice,
  compressors: Compressors,
): Promise<DecodedColumns> {
  // The columns as hyparquet decodes them: its row arrays would hold the same values, one array per
  // row more to build and collect.
  const chunks = new Map<string, Chunk[]>(columns.map((column) => [column, []]));
  await parquetRead({
    file: buffer,
    metadata,
    columns,
    rowStart: slice.start,
    rowEnd: slice.end,
    compressors,
    utf8: false,
    parsers: RAW_PARSERS,
    geoparquet: false,
    onChunk: ({ columnName, columnData, rowStart }) => {
      chunks.get(columnName)?.push({ values: columnData as ArrayLike<unknown>, start: rowStart });
    },
  });
  return {
    columns: columns.map((column) => sliceColumn(chunks.get(column) ?? [], slice)),
    rows: slice.end - slice.start,
  };
}

/**
 * Refuses row groups whose selected column chunks are larger, uncompressed, than the limit, before
 * anything is fetched (a 2 GB string chunk would otherwise exhaust memory and then crash).
 */
export function checkChunkSizes(
  metadata: FileMetaData,
  columns: readonly string[],
  rowGroup: number,
  limit: number,
  file: string,
): void {
  const selected = new Set(columns);
  for (const chunk of metadata.row_groups[rowGroup]?.columns ?? []) {
    const meta = chunk.meta_data;
    if (meta === undefined || !selected.has(meta.path_in_schema[0] ?? '')) continue;
    if (Number(meta.total_uncompressed_size) > limit) {
      throw new TfpipeError('PARQUET_UNSUPPORTED', 'column chunk too large to decode', {
        stage: 'parquetSource',
        position: { file, rowGroup, field: meta.path_in_schema.join('.') },
        reason: `${String(meta.total_uncompressed_size)} bytes uncompressed exceeds maxColumnChunkBytes (${limit})`,
      });
    }
  }
}

/**
 * Decodes every selected column of one slice (in `columns` order). Nothing is
 * returned unless the whole slice decoded. On failure each column is retried alone to name the
 * one that is broken.
 *
 * @param compressors - the page decompressors (`pageCompressors`, which bound page sizes).
 */
export async function readSlice(
  buffer: AsyncBuffer,
  metadata: FileMetaData,
  columns: string[],
  slice: RowSlice,
  file: string,
  compressors: Compressors,
): Promise<DecodedColumns> {
  try {
    return await decode(buffer, metadata, columns, slice, compressors);
  } catch (error) {
    let field: string | undefined = columns.length === 1 ? columns[0] : undefined;
    let cause = error;
    if (!TfpipeError.is(error)) {
      for (const column of columns.length > 1 ? columns : []) {
        try {
          await decode(buffer, metadata, [column], slice, compressors);
        } catch (columnError) {
          field = column;
          cause = columnError;
          break;
        }
      }
    }
    const position =
      field === undefined ? { file, rowGroup: slice.rowGroup } : { file, rowGroup: slice.rowGroup, field };
    throw parquetError(cause, 'cannot decode Parquet data', position);
  }
}
