import type { RecordErrorOptions } from '@tfpipe/core';

/** A time unit a timestamp can be converted to. */
export type TimestampUnit = 's' | 'ms' | 'us' | 'ns';

/** How DECIMAL columns become features. */
export type DecimalMode = 'float' | 'text';

/** How LIST of STRUCT and MAP columns become features. */
export type NestedMode = 'error' | 'parallel';

/** The options every Parquet reader of this package takes (Node and browser). */
export interface ParquetReadOptions extends RecordErrorOptions {
  /**
   * Top-level columns to read; the others are never fetched nor decoded. A name that is not a
   * top-level column of the file fails with `PARQUET_COLUMN`.
   * @default every column
   */
  readonly columns?: readonly string[];
  /**
   * 0-based indexes of the row groups to read, in each file. Combined with `rowStart`/`rowEnd` by
   * intersection.
   * @default every row group
   */
  readonly rowGroups?: readonly number[];
  /**
   * First row to read (0-based, inclusive), counted from the start of each file.
   * @default 0
   */
  readonly rowStart?: number;
  /**
   * Row to stop before (0-based, exclusive), counted from the start of each file.
   * @default the end of the file
   */
  readonly rowEnd?: number;
  /**
   * Most rows decoded at once, in rows. A row group larger than this is read in slices of this
   * many rows. Slicing lowers peak memory when the file has an offset index (page index); without
   * one, each slice fetches the whole column chunk again.
   * @default one whole row group per slice
   */
  readonly decodeRows?: number;
  /**
   * Emit arrays of up to this many rows (batches) instead of one row per chunk: the stream's chunk
   * type becomes `ParquetRow[]`. Each row keeps its own position, `onError: 'skip'` still drops
   * single rows (a batch just holds fewer), and the report's `records` counts rows. 256 to 4096
   * suits tabular data; follow it with `buildExamples.batches(spec)`. Independent of `decodeRows`.
   * @default undefined (one row per chunk)
   */
  readonly batchSize?: number;
  /**
   * DECIMAL columns as `'float'` (the nearest double, later narrowed to float32) or `'text'` (the
   * exact decimal text, e.g. `-12.340`, as UTF-8 bytes).
   * @default 'float'
   */
  readonly decimal?: DecimalMode;
  /**
   * Convert TIMESTAMP and INT96 values to this unit (flooring when the unit is coarser).
   * @default the column's own unit (INT96: nanoseconds)
   */
  readonly timestampUnit?: TimestampUnit;
  /**
   * Joins a struct's name and its field's name into a feature name: `address/city`.
   * @default '/'
   */
  readonly separator?: string;
  /**
   * LIST of STRUCT and MAP columns: `'error'` fails with `PARQUET_UNSUPPORTED`; `'parallel'` turns
   * a MAP into two aligned list features `name/key` and `name/value`, and a LIST of STRUCT into
   * one list feature per field (`name/field`), all of the same length within a row.
   * @default 'error'
   */
  readonly nested?: NestedMode;
  /**
   * Refuse (with `PARQUET_UNSUPPORTED`) to decode a column chunk whose uncompressed size is larger
   * than this, in bytes, instead of exhausting memory.
   * @default 1073741824 (1 GiB)
   */
  readonly maxColumnChunkBytes?: number;
  /**
   * Refuse (with `PARQUET_UNSUPPORTED`) to decompress a page whose header claims more than this
   * many bytes uncompressed. hyparquet allocates the claimed size before decompressing, so a few
   * hundred bytes of file could otherwise claim gigabytes. A page is also refused (`PARQUET_FORMAT`)
   * when it claims more than its whole column chunk.
   * @default 268435456 (256 MiB), or `maxColumnChunkBytes` when that is smaller
   */
  readonly maxPageBytes?: number;
}

/** The read options with their defaults applied. */
export interface ResolvedReadOptions {
  readonly columns: readonly string[] | undefined;
  readonly rowGroups: ReadonlySet<number> | undefined;
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly decodeRows: number;
  readonly batchSize: number | undefined;
  readonly decimal: DecimalMode;
  readonly timestampUnit: TimestampUnit | undefined;
  readonly separator: string;
  readonly nested: NestedMode;
  readonly maxColumnChunkBytes: number;
  readonly maxPageBytes: number;
}

/** Real writers cut pages near 1 MiB; 256 MiB leaves room for pages of large binary values. */
const DEFAULT_MAX_PAGE_BYTES = 2 ** 28;

/**
 * Applies the defaults to read options already checked (the `check*Options` functions of
 * `parquet-options-schema.ts`: the option schemas are the one place options are checked).
 */
export function resolveReadOptions(options: ParquetReadOptions): ResolvedReadOptions {
  const { columns, rowGroups } = options;
  const maxColumnChunkBytes = options.maxColumnChunkBytes ?? 2 ** 30;
  return {
    columns: columns === undefined ? undefined : [...columns],
    rowGroups: rowGroups === undefined ? undefined : new Set(rowGroups),
    rowStart: options.rowStart ?? 0,
    rowEnd: options.rowEnd ?? Number.MAX_SAFE_INTEGER,
    decodeRows: options.decodeRows ?? Number.MAX_SAFE_INTEGER,
    batchSize: options.batchSize,
    decimal: options.decimal ?? 'float',
    timestampUnit: options.timestampUnit,
    separator: options.separator ?? '/',
    nested: options.nested ?? 'error',
    maxColumnChunkBytes,
    maxPageBytes: options.maxPageBytes ?? Math.min(DEFAULT_MAX_PAGE_BYTES, maxColumnChunkBytes),
  };
}
