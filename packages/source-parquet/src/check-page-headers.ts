import { TfpipeError } from '@tfpipe/core';
import type { FileMetaData } from 'hyparquet';
import { pageTooLarge, snappyPreamble } from './page-compressors.js';
import { CompactReader } from './page-header-reader.js';
import type { PageHeaderFields } from './page-header-reader.js';

/** Where one column chunk lies in the file, and what its footer entry claims. */
export interface ColumnChunkRange {
  readonly start: number;
  readonly end: number;
  readonly rowGroup: number;
  readonly column: string;
  /** `total_uncompressed_size`: no page of the chunk can be larger. */
  readonly uncompressedSize: number;
  /** `num_values`: no data page of the chunk can hold more. */
  readonly values: number;
  /** The chunk's codec, as hyparquet names it (`SNAPPY` …). */
  readonly codec: string;
}

const DATA_PAGE = 0;
const DATA_PAGE_V2 = 3;

/** The byte range of every column chunk the footer describes (ranges it cannot state are left out). */
export function columnChunkRanges(metadata: FileMetaData): ColumnChunkRange[] {
  const ranges: ColumnChunkRange[] = [];
  metadata.row_groups.forEach((group, rowGroup) => {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (meta === undefined) continue;
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      const end = start + Number(meta.total_compressed_size);
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) continue;
      ranges.push({
        start,
        end,
        rowGroup,
        column: meta.path_in_schema.join('.'),
        uncompressedSize: Number(meta.total_uncompressed_size),
        values: Number(meta.num_values),
        codec: meta.codec,
      });
    }
  });
  return ranges;
}

/**
 * Walks the page headers of every column chunk that `bytes` (read at `offset`) holds whole, before
 * hyparquet decodes any of them, and returns the error for the first page it must not see:
 * - `PARQUET_UNSUPPORTED` for a page claiming more than `maxPageBytes` uncompressed: hyparquet
 *   allocates the claimed size before decompressing (a 2 KB brotli page claiming 2^31 bytes took
 *   2.2 GB and 36 s);
 * - `PARQUET_FORMAT` for a page claiming more bytes than its column chunk, more values than its
 *   column chunk, or a size its snappy data contradicts, and for a `DATA_PAGE_V2` header without its
 *   level byte lengths (hyparquet 1.31 then reads at offset `NaN`, which DataView treats as 0
 *   without advancing, and loops forever synchronously: no timeout or cancel could stop it).
 * Headers this walker cannot parse are left to hyparquet, which rejects them with its own error.
 */
export function checkPageHeaders(
  bytes: Uint8Array,
  offset: number,
  chunks: readonly ColumnChunkRange[],
  file: string,
  maxPageBytes: number,
): TfpipeError | undefined {
  const end = offset + bytes.length;
  for (const chunk of chunks) {
    if (chunk.start < offset || chunk.end > end) continue;
    let position = chunk.start - offset;
    const limit = chunk.end - offset;
    while (position < limit) {
      const reader = new CompactReader(bytes, position, limit);
      const header = reader.pageHeader();
      if (header === undefined) break;
      const problem = pageProblem(header, chunk, maxPageBytes, bytes, reader.position, limit);
      if (problem !== undefined) {
        return problem.withPosition({
          file,
          rowGroup: chunk.rowGroup,
          field: chunk.column,
          byteOffset: offset + position,
        });
      }
      if (header.compressedSize === undefined || header.compressedSize < 0) break;
      position = reader.position + header.compressedSize;
    }
  }
  return undefined;
}

function corrupt(reason: string): TfpipeError {
  return new TfpipeError('PARQUET_FORMAT', 'corrupt page header', { stage: 'parquetSource', reason });
}

/** What is wrong with one page header whose data starts at `dataStart`, if anything. */
function pageProblem(
  header: PageHeaderFields,
  chunk: ColumnChunkRange,
  maxPageBytes: number,
  bytes: Uint8Array,
  dataStart: number,
  limit: number,
): TfpipeError | undefined {
  const { uncompressedSize, definitionLevelsLength, repetitionLevelsLength } = header;
  if (header.type === DATA_PAGE_V2) {
    const levels = [definitionLevelsLength, repetitionLevelsLength];
    if (levels.some((length) => length === undefined || length < 0))
      return corrupt('a DATA_PAGE_V2 header lacks its definition or repetition levels byte length');
  }
  if (uncompressedSize === undefined) return undefined;
  if (uncompressedSize > maxPageBytes) return pageTooLarge(uncompressedSize, maxPageBytes);
  if (uncompressedSize > chunk.uncompressedSize) {
    return corrupt(
      `the page claims ${uncompressedSize} bytes uncompressed, more than its whole column chunk (${chunk.uncompressedSize})`,
    );
  }
  const isData = header.type === DATA_PAGE || header.type === DATA_PAGE_V2;
  if (isData && header.values !== undefined && header.values > chunk.values) {
    return corrupt(
      `the page claims ${header.values} values, more than its whole column chunk (${chunk.values})`,
    );
  }
  if (chunk.codec === 'SNAPPY' && header.compressed) {
    // A v2 page keeps its levels uncompressed, ahead of the snappy data.
    const levels =
      header.type === DATA_PAGE_V2 ? (definitionLevelsLength ?? 0) + (repetitionLevelsLength ?? 0) : 0;
    const dataEnd = Math.min(limit, dataStart + (header.compressedSize ?? 0));
    const stated = snappyPreamble(bytes, dataStart + levels, dataEnd);
    if (stated !== undefined && stated !== uncompressedSize - levels) {
      return corrupt(
        `the page claims ${uncompressedSize - levels} bytes uncompressed, its snappy data ${stated}`,
      );
    }
  }
  return undefined;
}
