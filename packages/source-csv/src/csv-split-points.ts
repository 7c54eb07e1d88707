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
  /** Whether the first record is a header (then the first range starts after it). @default true */
  readonly header?: boolean;
}

/** Where a CSV file may be cut: every offset is the first byte of a record. */
export interface CsvSplitPoints {
  /** The delimiter given or detected: pass it to every range's reader so that all agree. */
  readonly delimiter: string;
  /** The byte after the header record (0 without a header): the header's bytes are `[0, headerEnd)`. */
  readonly headerEnd: number;
  /** Starts of the ranges in order, the first `headerEnd`; each range runs to the next start or the end. */
  readonly starts: readonly number[];
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
  const starts: number[] = [];
  let headerEnd = options.header === false ? 0 : -1;
  if (headerEnd === 0) starts.push(0);
  let position = 0;
  let inQuotes = false;
  let fieldStart = true;
  let afterEscape = false;
  let previous = 0;
  let sniffed: Uint8Array[] = [];
  let nextCut = options.targetBytes;
  const recordEnds = (end: number): void => {
    if (headerEnd < 0) {
      headerEnd = end;
      starts.push(end);
      nextCut = end + options.targetBytes;
    } else if (end >= nextCut && end < reader.size) {
      starts.push(end);
      nextCut = end + options.targetBytes;
    }
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
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index]!;
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
          if (byte === NEWLINE) recordEnds(position + index + 1);
          fieldStart = true;
          previous = byte;
          continue;
        }
        fieldStart = byte === delimiterCode;
        previous = byte;
      }
      position += chunk.length;
    }
  } finally {
    await reader.close();
  }
  if (headerEnd < 0) {
    headerEnd = position;
    starts.push(position);
  }
  return { delimiter: delimiter ?? ',', headerEnd, starts, size: reader.size };
}
