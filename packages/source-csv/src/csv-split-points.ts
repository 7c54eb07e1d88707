import { TfpipeError } from '@tfpipe/core';
import { detectDelimiter } from './detect-delimiter.js';
import { ChunkedFileReader } from './file-input.js';

/** Options of {@link csvSplitPoints}: the file's dialect, as `csvSource` reads it. */
export interface CsvSplitPointsOptions {
  /** Bytes each range should hold at least (a range ends at the first record end after it). */
  readonly targetBytes: number;
  /** One character between fields. @default detected as `csvSource` detects it */
  readonly delimiter?: string;
  /** @default '"' */
  readonly quote?: string;
  /** @default quote */
  readonly escape?: string;
  /**
   * Whether the first record is a header (then the first range starts after it); with `skipEmptyLines`,
   * blank lines before it are passed over, as the reader passes over them. @default true
   */
  readonly header?: boolean;
  /** Whether empty lines are skipped (not counted as rows), as `csvSource` does. @default true */
  readonly skipEmptyLines?: boolean;
}

/** Where a CSV file may be cut: every offset is the first byte of a record. */
export interface CsvSplitPoints {
  /** The delimiter given or detected: pass it to every range's reader so that all agree. */
  readonly delimiter: string;
  /** The byte after the header record (0 without a header): the header's bytes are `[0, headerEnd)`. */
  readonly headerEnd: number;
  /** Starts of the ranges in order, the first `headerEnd`; each range runs to the next start or the end. */
  readonly starts: readonly number[];
  /** The 1-based line of each start in the file (pass it as `csvSource`'s `streamStart.line`). */
  readonly lines: readonly number[];
  /** The 0-based data row of each start, as `csvSource` counts rows (pass it as `streamStart.row`). */
  readonly rows: readonly number[];
  /**
   * Fields of the file's first record (the header, or the first data record without one): a range
   * read without a header must be given the column names the whole file gets from it.
   */
  readonly firstRecordFields: number;
  /** The file's size when it was read. */
  readonly size: number;
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const STAGE = 'csvSplitPoints';
/** Text read to detect the delimiter, as the reader does. */
const SNIFF_BYTES = 16 * 1024;

function asciiCode(option: string, value: string): number {
  const code = value.charCodeAt(0);
  if (value.length !== 1 || code > 0x7f) {
    throw new TfpipeError('INVALID_OPTION', `csvSplitPoints option ${option} must be one ASCII character`, {
      stage: STAGE,
      fatal: true,
    });
  }
  return code;
}

/** What {@link scanFast} carries from chunk to chunk. */
interface FastScan {
  readonly quoteCode: number;
  readonly size: number;
  readonly targetBytes: number;
  readonly skipEmptyLines: boolean;
  inQuotes: boolean;
  /** The last byte scanned. */
  previous: number;
  /** Where the record being read starts (absolute). */
  recordStart: number;
  lineFeeds: number;
  rowCount: number;
  nextCut: number;
  readonly starts: number[];
  readonly lines: number[];
  readonly rows: number[];
}

/**
 * The byte loop's rules (with `escape` equal to `quote`) for the bytes after the header, applied by
 * jumping between quotes and line feeds with `indexOf` instead of looking at every byte: out of
 * quotes, a quote opens a field when the byte before it is a delimiter, CR, LF or a quote; in quotes,
 * the next quote closes it; a line feed out of quotes ends a record, which is empty when it holds
 * nothing or a lone CR. Every line feed is counted, in quotes or not.
 */
function scanFast(state: FastScan, chunk: Uint8Array, chunkStart: number, delimiterCode: number): void {
  const { quoteCode, size, targetBytes, skipEmptyLines } = state;
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  const length = bytes.length;
  if (length === 0) return;
  let { inQuotes, lineFeeds, rowCount, nextCut, recordStart } = state;
  /** The byte before `index` of this chunk. */
  const before = (index: number): number => (index > 0 ? bytes[index - 1]! : state.previous);
  let newline = bytes.indexOf(NEWLINE, 0);
  let quote = bytes.indexOf(quoteCode, 0);
  let index = 0;
  while (index < length) {
    if (inQuotes) {
      const close = quote;
      const until = close < 0 ? length : close;
      while (newline >= 0 && newline < until) {
        lineFeeds++;
        newline = bytes.indexOf(NEWLINE, newline + 1);
      }
      if (close < 0) break;
      inQuotes = false;
      index = close + 1;
      quote = bytes.indexOf(quoteCode, index);
      continue;
    }
    if (newline >= 0 && (quote < 0 || newline < quote)) {
      lineFeeds++;
      const end = chunkStart + newline + 1;
      const bytesInRecord = end - 1 - recordStart;
      const empty = bytesInRecord === 0 || (bytesInRecord === 1 && before(newline) === RETURN);
      if (!(skipEmptyLines && empty)) rowCount++;
      if (end >= nextCut && end < size) {
        state.starts.push(end);
        state.lines.push(lineFeeds + 1);
        state.rows.push(rowCount);
        nextCut = end + targetBytes;
      }
      recordStart = end;
      index = newline + 1;
      newline = bytes.indexOf(NEWLINE, index);
      continue;
    }
    if (quote < 0) break;
    const prior = before(quote);
    if (prior === delimiterCode || prior === NEWLINE || prior === RETURN || prior === quoteCode)
      inQuotes = true;
    index = quote + 1;
    quote = bytes.indexOf(quoteCode, index);
  }
  state.previous = bytes[length - 1]!;
  Object.assign(state, { inQuotes, lineFeeds, rowCount, nextCut, recordStart });
}

/**
 * Reads a CSV file once and finds record starts about every `targetBytes`, with the parser's quoting
 * rules (a quote opens a field only at its start; inside, `escape` + quote or a doubled quote stays
 * in the field), so that no cut falls inside a quoted field holding newlines. Each range `[start,
 * next)`, read after the header bytes, yields exactly the records the whole file yields there.
 *
 * @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE`, `IO`, `INVALID_OPTION` (non-ASCII characters)
 */
export async function csvSplitPoints(file: string, options: CsvSplitPointsOptions): Promise<CsvSplitPoints> {
  const quote = options.quote ?? '"';
  const quoteCode = asciiCode('quote', quote);
  const escapeCode = asciiCode('escape', options.escape ?? quote);
  const reader = await ChunkedFileReader.open(file, STAGE);
  let delimiter = options.delimiter;
  const skipEmptyLines = options.skipEmptyLines ?? true;
  const starts: number[] = [];
  const lines: number[] = [];
  const rows: number[] = [];
  let headerEnd = options.header === false ? 0 : -1;
  if (headerEnd === 0) {
    starts.push(0);
    lines.push(1);
    rows.push(0);
  }
  // Line feeds before the byte being read, and data rows ended so far.
  let lineFeeds = 0;
  let rowCount = 0;
  // Bytes of the record being read but a leading CR: an empty line (LF or CRLF alone) has none.
  let recordBytes = 0;
  let leadingReturn = false;
  let recordFields = 1;
  let firstRecordFields = 0;
  let position = 0;
  let inQuotes = false;
  let fieldStart = true;
  let afterEscape = false;
  let previous = 0;
  let sniffed: Uint8Array[] = [];
  let nextCut = options.targetBytes;
  let fast: FastScan | undefined;
  const cut = (end: number): void => {
    starts.push(end);
    lines.push(lineFeeds + 1);
    rows.push(rowCount);
    nextCut = end + options.targetBytes;
  };
  // Called after the line feed ending a record is counted.
  const recordEnds = (end: number): void => {
    if (firstRecordFields === 0 && !(skipEmptyLines && recordBytes === 0)) firstRecordFields = recordFields;
    recordFields = 1;
    if (headerEnd < 0) {
      // The reader skips empty lines before its header as it does between rows.
      if (skipEmptyLines && recordBytes === 0) return;
      headerEnd = end;
      cut(end);
      return;
    }
    // The reader skips an empty line (LF or CRLF alone) without counting a row.
    if (!(skipEmptyLines && recordBytes === 0)) rowCount++;
    if (end >= nextCut && end < reader.size) cut(end);
  };
  try {
    for (let chunk = await reader.read(); chunk !== undefined; chunk = await reader.read()) {
      if (delimiter === undefined) {
        sniffed.push(chunk);
        if (position + chunk.length >= SNIFF_BYTES || position + chunk.length >= reader.size) {
          const start = Buffer.concat(sniffed).subarray(0, SNIFF_BYTES);
          delimiter = detectDelimiter(new TextDecoder().decode(start), quote);
          sniffed = [];
        }
      }
      const delimiterCode = delimiter === undefined ? -1 : delimiter.charCodeAt(0);
      if (fast !== undefined) {
        scanFast(fast, chunk, position, delimiterCode);
        position += chunk.length;
        continue;
      }
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index]!;
        if (byte === NEWLINE) lineFeeds++;
        if (inQuotes) {
          if (afterEscape) afterEscape = false;
          else if (byte === escapeCode && escapeCode !== quoteCode) afterEscape = true;
          else if (byte === quoteCode) inQuotes = false;
          // A doubled quote closes and at once reopens: the next quote is not at a field start,
          // so it is handled here by reopening.
        } else if (
          byte === quoteCode &&
          (fieldStart || (previous === quoteCode && escapeCode === quoteCode))
        ) {
          inQuotes = true;
        } else if (byte === NEWLINE || byte === RETURN) {
          // Cuts only after a line feed: a lone CR ends a record too, but may be half of a CRLF
          // split across chunks, and fewer cuts are still correct ones.
          if (byte === NEWLINE) {
            recordEnds(position + index + 1);
            recordBytes = 0;
            leadingReturn = false;
            if (headerEnd >= 0 && firstRecordFields !== 0 && escapeCode === quoteCode && delimiterCode >= 0) {
              // At a record start out of quotes, with the header and field count known: the rest
              // jumps from quote to line feed (see scanFast).
              fast = {
                quoteCode,
                size: reader.size,
                targetBytes: options.targetBytes,
                skipEmptyLines,
                inQuotes: false,
                previous: NEWLINE,
                recordStart: position + index + 1,
                lineFeeds,
                rowCount,
                nextCut,
                starts,
                lines,
                rows,
              };
              scanFast(fast, chunk.subarray(index + 1), position + index + 1, delimiterCode);
              break;
            }
          } else if (recordBytes === 0 && !leadingReturn) leadingReturn = true;
          else recordBytes++;
          fieldStart = true;
          previous = byte;
          continue;
        }
        fieldStart = byte === delimiterCode;
        if (fieldStart && !inQuotes) recordFields++;
        previous = byte;
        recordBytes++;
      }
      position += chunk.length;
    }
  } finally {
    await reader.close();
  }
  if (firstRecordFields === 0 && recordBytes > 0) firstRecordFields = recordFields;
  if (headerEnd < 0) {
    headerEnd = position;
    cut(position);
  }
  return {
    delimiter: delimiter ?? ',',
    headerEnd,
    starts,
    lines,
    rows,
    firstRecordFields,
    size: reader.size,
  };
}
