/**
 * An RFC 4180 state machine over decoded text. It is fed string chunks of any size (a quoted field,
 * a `""` escape or a CRLF may straddle two chunks), and reports each record with the 1-based line its
 * first character is on, so errors name exact lines even when quoted fields span several lines.
 *
 * Unquoted fields are found with `indexOf` (cached per chunk), which is what makes it fast; quoted
 * fields are scanned quote to quote.
 */

/** How the text is split. All are single UTF-16 characters, already checked by the caller. */
export interface CsvParserOptions {
  readonly delimiter: string;
  readonly quote: string;
  /** Escapes a quote inside a quoted field; equal to `quote` for RFC 4180 `""`. */
  readonly escape: string;
  /** Lines starting with this prefix (at the start of a record) are skipped. */
  readonly comment: string | undefined;
  /** Lines with no characters at all are skipped rather than read as a one-field record. */
  readonly skipEmptyLines: boolean;
  /**
   * The longest record (all its fields, quotes and delimiters), in UTF-16 characters, the parser buffers
   * before it throws {@link RecordTooLongError}: what bounds memory on a hostile or broken file.
   * @default Infinity
   */
  readonly maxRecordLength?: number;
}

/** Thrown when one record grows past `maxRecordLength` characters before it ends. */
export class RecordTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly length: number,
    readonly maxRecordLength: number,
  ) {
    super(`record at line ${line} is longer than ${maxRecordLength} characters`);
  }
}

/** Receives the parser's output. */
export interface CsvParserHandler {
  /** A complete record: its fields and the 1-based line of its first character. */
  record(fields: string[], line: number): void;
  /**
   * A malformed record (text after a closing quote). The parser resynchronises at the end of the line
   * and goes on; `column` is the 1-based field number.
   */
  malformed(line: number, column: number, reason: string): void;
}

/** Thrown by {@link CsvParser.end} when the input ends inside a quoted field. */
export class UnterminatedQuoteError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
  ) {
    super(`unterminated quoted field opened at line ${line}`);
  }
}

const LF = 10;
const CR = 13;

/** A streaming CSV parser; see the file comment. */
export class CsvParser {
  readonly #delimiterCode: number;
  readonly #quoteCode: number;
  readonly #escapeCode: number;
  readonly #options: CsvParserOptions;
  readonly #handler: CsvParserHandler;
  /** Text not yet consumed: the start of an incomplete record. */
  #rest = '';
  /** Chunks received since the last parse attempt, joined lazily. */
  #pending: string[] = [];
  #pendingLength = 0;
  /** 1-based line of the first character of `#rest`. */
  #line = 1;
  /** Next escape character at or after a position, cached within one parse call (escape ≠ quote). */
  #nextEscape = -1;

  /** @param firstLine - the 1-based line of the first character it is fed (past 1: mid-file) */
  constructor(options: CsvParserOptions, handler: CsvParserHandler, firstLine = 1) {
    this.#line = firstLine;
    this.#options = options;
    this.#handler = handler;
    this.#delimiterCode = options.delimiter.charCodeAt(0);
    this.#quoteCode = options.quote.charCodeAt(0);
    this.#escapeCode = options.escape.charCodeAt(0);
  }

  /** The 1-based line the parser has reached (the first line of the record in progress). */
  get line(): number {
    return this.#line;
  }

  /**
   * Counts lines from `line` on: the records after the one being handled lie there (a range of a
   * file read after its header). Called from the record handler.
   */
  moveToLine(line: number): void {
    this.#line = line;
  }

  /**
   * Newlines in all the text pushed so far, parsed or not: where the input stands in lines, for an
   * error outside any record (an encoding error in the next chunk).
   */
  get newlinesPushed(): number {
    let count = this.#line - 1 + countNewlines(this.#rest, 0, this.#rest.length);
    for (const text of this.#pending) count += countNewlines(text, 0, text.length);
    return count;
  }

  /** The text pushed and not yet consumed by a whole record (it starts on {@link line}). */
  get unparsed(): string {
    return this.#pending.length === 0 ? this.#rest : this.#rest + this.#pending.join('');
  }

  /** Feeds decoded text. */
  push(text: string): void {
    if (text === '') return;
    this.#pending.push(text);
    this.#pendingLength += text.length;
    // A record longer than a chunk would be rescanned on every chunk; waiting until as much new text
    // has arrived as is already buffered keeps the total work linear.
    if (this.#pendingLength < this.#rest.length) return;
    this.#parseBuffered(false);
  }

  /**
   * Flushes the last record (with or without a trailing newline).
   * @throws UnterminatedQuoteError when the input ends inside a quoted field.
   */
  end(): void {
    this.#parseBuffered(true);
  }

  #parseBuffered(final: boolean): void {
    const input = this.#rest + this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    const consumed = this.#parse(input, final);
    this.#rest = consumed === input.length ? '' : input.slice(consumed);
    // Unparsed text waits in `#pending` only until it is as long as `#rest`, so this bounds memory at
    // about twice the limit.
    const max = this.#options.maxRecordLength ?? Infinity;
    if (this.#rest.length > max) throw new RecordTooLongError(this.#line, this.#rest.length, max);
  }

  /** Parses whole records from `input`; returns how many characters were consumed. */
  #parse(input: string, final: boolean): number {
    const length = input.length;
    const delimiter = this.#delimiterCode;
    const quote = this.#quoteCode;
    const { comment, skipEmptyLines } = this.#options;
    let nextDelimiter = -1;
    let nextNewline = -1;
    this.#nextEscape = -1;
    let recordStart = 0;
    while (recordStart < length) {
      let pos = recordStart;
      const first = input.charCodeAt(pos);
      if (comment !== undefined && input.startsWith(comment, pos)) {
        const newline = input.indexOf('\n', pos);
        if (newline < 0) return final ? length : recordStart;
        recordStart = newline + 1;
        this.#line++;
        continue;
      }
      if (skipEmptyLines && (first === LF || first === CR)) {
        if (first === LF) {
          recordStart++;
          this.#line++;
          continue;
        }
        if (pos + 1 >= length && !final) return recordStart;
        if (input.charCodeAt(pos + 1) === LF) {
          recordStart += 2;
          this.#line++;
          continue;
        }
      }
      const fields: string[] = [];
      let extraLines = 0;
      let recordEnd = -1;
      let malformedColumn = 0;
      while (recordEnd < 0) {
        if (pos < length && input.charCodeAt(pos) === quote) {
          const quoted = this.#readQuoted(input, pos, final);
          if (quoted === undefined) {
            if (final) throw new UnterminatedQuoteError(this.#line + extraLines, fields.length + 1);
            return recordStart;
          }
          extraLines += countNewlines(input, pos, quoted.end);
          pos = quoted.end;
          const next = pos < length ? input.charCodeAt(pos) : -1;
          if (next === delimiter) {
            fields.push(quoted.value);
            pos++;
          } else if (next === LF) {
            fields.push(quoted.value);
            recordEnd = pos + 1;
          } else if (next === CR && pos + 1 < length && input.charCodeAt(pos + 1) === LF) {
            fields.push(quoted.value);
            recordEnd = pos + 2;
          } else if (next === -1 || (next === CR && pos + 1 >= length)) {
            if (!final) return recordStart;
            fields.push(quoted.value);
            recordEnd = length;
          } else {
            // Text after a closing quote: report it and resynchronise at the end of the line.
            malformedColumn = fields.length + 1;
            const newline = input.indexOf('\n', pos);
            if (newline < 0 && !final) return recordStart;
            recordEnd = newline < 0 ? length : newline + 1;
          }
        } else {
          if (nextDelimiter < pos) {
            nextDelimiter = input.indexOf(this.#options.delimiter, pos);
            if (nextDelimiter < 0) nextDelimiter = length;
          }
          if (nextNewline < pos) {
            nextNewline = input.indexOf('\n', pos);
            if (nextNewline < 0) nextNewline = length;
          }
          if (nextDelimiter < nextNewline) {
            fields.push(input.slice(pos, nextDelimiter));
            pos = nextDelimiter + 1;
          } else if (nextNewline < length) {
            const end =
              nextNewline > pos && input.charCodeAt(nextNewline - 1) === CR ? nextNewline - 1 : nextNewline;
            fields.push(input.slice(pos, end));
            recordEnd = nextNewline + 1;
          } else {
            if (!final) return recordStart;
            const end = length > pos && input.charCodeAt(length - 1) === CR ? length - 1 : length;
            fields.push(input.slice(pos, end));
            recordEnd = length;
          }
        }
      }
      const line = this.#line;
      this.#line += extraLines + (input.charCodeAt(recordEnd - 1) === LF ? 1 : 0);
      recordStart = recordEnd;
      if (malformedColumn > 0) {
        this.#handler.malformed(line, malformedColumn, 'unexpected text after a closing quote');
      } else {
        this.#handler.record(fields, line);
      }
    }
    return recordStart;
  }

  /** Reads a quoted field starting at `start` (the opening quote); undefined when it is not closed yet. */
  #readQuoted(input: string, start: number, final: boolean): { value: string; end: number } | undefined {
    const quoteChar = this.#options.quote;
    const escapeChar = this.#options.escape;
    const sameEscape = this.#escapeCode === this.#quoteCode;
    const length = input.length;
    let value = '';
    let segment = start + 1;
    let search = segment;
    for (;;) {
      const close = input.indexOf(quoteChar, search);
      if (!sameEscape) {
        if (this.#nextEscape < search) {
          this.#nextEscape = input.indexOf(escapeChar, search);
          if (this.#nextEscape < 0) this.#nextEscape = length;
        }
        const escape = this.#nextEscape;
        if (escape < length && (close < 0 || escape < close)) {
          if (escape + 1 >= length) return undefined;
          value += input.slice(segment, escape) + input.charAt(escape + 1);
          segment = search = escape + 2;
          continue;
        }
      }
      if (close < 0) return undefined;
      if (sameEscape) {
        if (close + 1 >= length && !final) return undefined;
        if (input.charCodeAt(close + 1) === this.#quoteCode) {
          value += input.slice(segment, close + 1);
          segment = search = close + 2;
          continue;
        }
      }
      value += input.slice(segment, close);
      return { value, end: close + 1 };
    }
  }
}

/** Newlines in `input[from, to)`; a bounded loop, since `indexOf` cannot stop at `to`. Internal. */
export function countNewlines(input: string, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index++) if (input.charCodeAt(index) === LF) count++;
  return count;
}
