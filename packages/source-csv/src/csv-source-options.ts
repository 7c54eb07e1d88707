import type { RecordErrorOptions } from '@tfpipe/core';

/** Renames, drops or keeps columns. Names refer to the header (or to `header` names when given). */
export interface CsvColumnsOptions {
  /** Old name → new name (the feature name). Applied after `keep`/`drop`. @default {} */
  readonly rename?: Readonly<Record<string, string>>;
  /** Columns left out of every row. @default [] */
  readonly drop?: readonly string[];
  /** When given, only these columns are kept (in file order). @default every column */
  readonly keep?: readonly string[];
}

/** Options of {@link csvSource}. Exactly one of `path`, `paths` and `stream` is required. */
export interface CsvSourceOptions extends RecordErrorOptions {
  /** One file, or a glob pattern (`data/*.csv`, `data/**\/part-?.csv`, `{a,b}.csv`). */
  readonly path?: string;
  /** Several files and/or glob patterns, read in order (matches of a pattern sorted by name). All must share the same header. */
  readonly paths?: readonly string[];
  /** UTF-8 bytes from anywhere (fetch, stdin …). Cannot be read twice, so two-pass features reject it. */
  readonly stream?: ReadableStream<Uint8Array>;
  /** The name used for `stream` input in positions and messages. @default '<stream>' */
  readonly fileName?: string;
  /**
   * Where the first data record of `stream` lies in `fileName`, when the stream is a byte range of
   * that file (read after its header bytes, if it has a header): its 1-based `line` and 0-based data
   * `row`. Line and row positions then count in the whole file.
   * @default the stream's own: line 1 (or the line after its header), row 0
   */
  readonly streamStart?: { readonly line: number; readonly row: number };
  /** One character between fields. @default auto-detected among `,` `;` tab `|` from the first 10 lines */
  readonly delimiter?: string;
  /** One character around fields that contain delimiters, quotes or newlines. @default '"' */
  readonly quote?: string;
  /** One character escaping a quote inside a quoted field; equal to `quote` means RFC 4180 `""`. @default quote */
  readonly escape?: string;
  /**
   * `true`: the first record names the columns. `false`: no header; columns are named `column1`,
   * `column2` … `string[]`: no header row in the file; these are the names.
   * @default true
   */
  readonly header?: boolean | readonly string[];
  /** Lines starting with this prefix are skipped (only at the start of a record). @default none */
  readonly comment?: string;
  /** Lines with no characters at all are skipped instead of read as a one-empty-field row. @default true */
  readonly skipEmptyLines?: boolean;
  /** The only encoding: UTF-8, with a leading BOM removed; invalid bytes are a `CSV_ENCODING` error. @default 'utf-8' */
  readonly encoding?: 'utf-8';
  /** Rename, drop or keep columns. @default every column under its header name */
  readonly columns?: CsvColumnsOptions;
  /**
   * An empty file or a header-only file yields zero rows instead of a `CSV_EMPTY` error.
   * @default false
   */
  readonly allowEmpty?: boolean;
  /**
   * The longest record accepted, in characters (UTF-16 code units, so about bytes for ASCII): a record
   * (or a quoted field that never closes) growing past it is a fatal `RECORD_TOO_LARGE` error instead of
   * unbounded memory. Raise it for files with huge cells.
   * @default 67108864 (64 Mi characters)
   */
  readonly maxRecordLength?: number;
  /**
   * Emit arrays of up to this many rows (batches) instead of one row per chunk: the stream's chunk
   * type becomes `Row[]`. Each row keeps its own position, `onError: 'skip'` still drops single rows
   * (a batch just holds fewer), and the report's `records` counts rows. 256 to 4096 suits tabular
   * data; follow it with `buildExamples.batches(spec)`.
   * @default undefined (one row per chunk)
   */
  readonly batchSize?: number;
}

/** The default of {@link CsvSourceOptions.maxRecordLength}: 64 Mi characters. */
export const DEFAULT_MAX_RECORD_LENGTH = 64 * 1024 * 1024;

/** Options after checking, with defaults applied. */
export interface ResolvedCsvSourceOptions {
  readonly paths: readonly string[] | undefined;
  readonly stream: ReadableStream<Uint8Array> | undefined;
  readonly fileName: string;
  readonly streamStart: { readonly line: number; readonly row: number } | undefined;
  readonly delimiter: string | undefined;
  readonly quote: string;
  readonly escape: string;
  readonly header: boolean | readonly string[];
  readonly comment: string | undefined;
  readonly skipEmptyLines: boolean;
  readonly columns: CsvColumnsOptions;
  readonly allowEmpty: boolean;
  readonly maxRecordLength: number;
  readonly batchSize: number | undefined;
}

/**
 * Fills in the defaults of options already checked (`checkCsvSourceOptions` or
 * `checkCsvFeaturesOptions`: the option schemas are the one place options are checked).
 */
export function resolveCsvSourceOptions(options: CsvSourceOptions): ResolvedCsvSourceOptions {
  const quote = options.quote ?? '"';
  return {
    paths: options.path !== undefined ? [options.path] : options.paths,
    stream: options.stream,
    fileName: options.fileName ?? '<stream>',
    streamStart: options.streamStart,
    delimiter: options.delimiter,
    quote,
    escape: options.escape ?? quote,
    header: options.header ?? true,
    comment: options.comment,
    skipEmptyLines: options.skipEmptyLines ?? true,
    columns: options.columns ?? {},
    allowEmpty: options.allowEmpty ?? false,
    maxRecordLength: options.maxRecordLength ?? DEFAULT_MAX_RECORD_LENGTH,
    batchSize: options.batchSize,
  };
}
