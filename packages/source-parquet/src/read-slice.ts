import { TfpipeError } from '@tfpipe/core';
import type { AsyncBuffer, Compressors, FileMetaData } from 'hyparquet';
import { parquetRead } from 'hyparquet';
import type { RowSlice } from './plan-slices.js';
import { parquetError } from './parquet-error.js';
import { RAW_PARSERS } from './read-parquet-footer.js';

async function decode(
  buffer: AsyncBuffer,
  metadata: FileMetaData,
  columns: string[],
  slice: RowSlice,
  compressors: Compressors,
): Promise<unknown[][]> {
  let rows: unknown[][] = [];
  await parquetRead({
    file: buffer,
    metadata,
    columns,
    rowStart: slice.start,
    rowEnd: slice.end,
    rowFormat: 'array',
    compressors,
    utf8: false,
    parsers: RAW_PARSERS,
    geoparquet: false,
    onComplete: (result: unknown[][]) => {
      rows = result;
    },
  });
  if (rows.length !== slice.end - slice.start) {
    throw new Error(`decoded ${rows.length} rows where the footer promises ${slice.end - slice.start}`);
  }
  return rows;
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
 * Decodes every selected column of one slice into row arrays (in `columns` order). Nothing is
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
): Promise<unknown[][]> {
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
