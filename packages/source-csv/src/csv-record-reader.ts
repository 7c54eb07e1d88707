import { TfpipeError } from '@tfpipe/core';
import { utf16Advice } from '@tfpipe/core/plugin';
import type { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { planColumns, sameHeader } from './column-plan.js';
import type { ColumnPlan } from './column-plan.js';
import { CsvParser, RecordTooLongError, UnterminatedQuoteError, countNewlines } from './csv-parser.js';
import type { ResolvedCsvSourceOptions } from './csv-source-options.js';
import { detectDelimiter } from './detect-delimiter.js';
import { expandPaths } from '@tfpipe/node-utils';
import { ChunkedFileReader, READ_CHUNK_BYTES } from './file-input.js';
import { InvalidUtf8Error, Utf16InputError, Utf8ChunkDecoder } from './utf8-chunk-decoder.js';

/** One data record with the right number of fields, and where it is. */
export interface CsvRecord {
  /** Every field of the record, in file order (before keep/drop). */
  readonly fields: readonly string[];
  readonly file: string;
  /** 1-based line of the record's first character. */
  readonly line: number;
  /** 0-based data-row index within its file (bad rows count too, so positions stay stable). */
  readonly row: number;
}

interface ByteInput {
  read(): Promise<Uint8Array | undefined>;
  close(): Promise<void>;
}

/**
 * The rest of a file, handed over by a reader after its header and first data rows (see
 * {@link CsvRecordReader.nextWithHandOff}): its records start at `leftover`'s first byte.
 */
export interface CsvRemainder {
  readonly file: string;
  /** The open file, positioned after `leftover`: the new owner reads and closes it. */
  readonly input: ChunkedFileReader;
  /** Bytes read but not yet parsed into whole records (re-encoded from the parser's text). */
  readonly leftover: Uint8Array;
  /** Byte offset of `leftover` in the file. */
  readonly byteOffset: number;
  /** 1-based line of `leftover`'s first byte. */
  readonly line: number;
  /** 0-based data-row index of the next record. */
  readonly row: number;
}

/** A batch of {@link CsvRecordReader.nextWithHandOff}: the records, then maybe the rest of their file. */
export interface CsvBatch {
  /** Records in file order; empty only when `remainder` is set. */
  readonly records: CsvRecord[];
  /** The rest of the file the records came from, handed over: the caller owns (and closes) its input. */
  readonly remainder: CsvRemainder | undefined;
}

const utf8 = new TextEncoder();

/** Text to gather before auto-detecting the delimiter, unless the input ends first. @default 16 KiB */
const SNIFF_CHARS = 16 * 1024;
const STAGE = 'csvSource';

/**
 * Reads records, file after file, a chunk per call: the engine under `csvSource` and `csvFeatures`.
 * Header checks, ragged rows and parse errors are handled here; bad records go to `policy`.
 */
export class CsvRecordReader {
  #plan: ColumnPlan | undefined;
  #delimiter: string | undefined;
  readonly #files: string[] = [];
  #bytes = 0;
  #records = 0;
  readonly #readBytes: number;
  readonly #options: ResolvedCsvSourceOptions;
  readonly #policy: RecordErrorPolicy;
  #queue: string[] | undefined;
  #firstHeaderFile = '';
  #input: ByteInput | undefined;
  #file = '';
  #decoder = new Utf8ChunkDecoder();
  #parser: CsvParser | undefined;
  #sniffed = '';
  #headerDone = false;
  #fileRecords = 0;
  #fileRow = 0;
  #out: CsvRecord[] = [];
  #done = false;
  /** Bytes of the current file read so far. */
  #fileBytes = 0;
  /** The rest of a file just handed over: {@link nextWithHandOff} returns it with what came before it. */
  #remainder: CsvRemainder | undefined;

  /**
   * @param readBytes - bytes per read of a file
   * @default readBytes READ_CHUNK_BYTES (64 KiB)
   */
  constructor(options: ResolvedCsvSourceOptions, policy: RecordErrorPolicy, readBytes = READ_CHUNK_BYTES) {
    this.#options = options;
    this.#policy = policy;
    this.#delimiter = options.delimiter;
    this.#readBytes = readBytes;
  }

  /** Columns and names, known once the first header is read. */
  get plan(): ColumnPlan | undefined {
    return this.#plan;
  }

  /** The delimiter in use (given or detected). */
  get delimiter(): string | undefined {
    return this.#delimiter;
  }

  /** Files read so far (or being read). */
  get files(): readonly string[] {
    return this.#files;
  }

  /** Bytes this reader read (not those of a file's rest handed over). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Good records returned. */
  get records(): number {
    return this.#records;
  }

  /** The next batch of records (never empty), or undefined when every input is read. */
  async next(): Promise<CsvRecord[] | undefined> {
    return (await this.#nextBatch(false))?.records;
  }

  /**
   * {@link next}, except that once a file's header and a data row are read and bytes of it are still
   * unread, the rest of the file is handed over in the batch's `remainder` (files only, never a
   * stream): the caller reads it from there, and this reader goes on with the next file.
   */
  nextWithHandOff(): Promise<CsvBatch | undefined> {
    return this.#nextBatch(true);
  }

  async #nextBatch(handOff: boolean): Promise<CsvBatch | undefined> {
    try {
      for (;;) {
        if (this.#out.length > 0 || this.#remainder !== undefined) {
          const records = this.#out;
          const remainder = this.#remainder;
          this.#out = [];
          this.#remainder = undefined;
          this.#records += records.length;
          return { records, remainder };
        }
        if (this.#done) return undefined;
        if (this.#input === undefined && !(await this.#openNext())) {
          this.#done = true;
          continue;
        }
        const chunk = await this.#input!.read();
        if (this.#done) return undefined;
        if (chunk === undefined) {
          this.#feed(this.#decode(undefined), true);
          this.#finishFile();
          await this.#input?.close();
          this.#input = undefined;
        } else {
          this.#bytes += chunk.length;
          this.#fileBytes += chunk.length;
          this.#feed(this.#decode(chunk), false);
          if (handOff) this.#handOffRest();
        }
      }
    } catch (error) {
      await this.cancel();
      throw error;
    }
  }

  /** Stops reading and closes the open file (or cancels the input stream). */
  async cancel(): Promise<void> {
    this.#done = true;
    const input = this.#input;
    this.#input = undefined;
    await input?.close();
    const remainder = this.#remainder;
    this.#remainder = undefined;
    await remainder?.input.close();
  }

  /**
   * A reader for text that continues a file whose header was read before (a file's rest the byte
   * path left): the given columns, no header row, positions counted from `start`, the record that
   * the first byte it is fed ({@link feedChunk}) must begin.
   */
  static continuing(
    options: ResolvedCsvSourceOptions,
    policy: RecordErrorPolicy,
    plan: ColumnPlan,
    start: Pick<CsvRemainder, 'file' | 'line' | 'row' | 'byteOffset'>,
  ): CsvRecordReader {
    const reader = new CsvRecordReader(options, policy);
    reader.#plan = plan;
    reader.#firstHeaderFile = start.file;
    reader.#file = start.file;
    reader.#files.push(start.file);
    reader.#headerDone = true;
    reader.#fileRow = start.row;
    reader.#decoder = new Utf8ChunkDecoder(start.byteOffset);
    reader.#parser = reader.#createParser(options.delimiter!, start.line);
    return reader;
  }

  /**
   * Parses the next bytes of a {@link continuing} reader (`final`: the file ends with them) and
   * returns the whole records they complete; a record cut off at their end waits for the next call.
   */
  feedChunk(bytes: Uint8Array, final: boolean): CsvRecord[] {
    this.#feed(this.#decode(bytes), false);
    if (final) this.#feed(this.#decode(undefined), true);
    const out = this.#out;
    this.#out = [];
    return out;
  }

  /** The 1-based line the parser is on: where the next record starts. */
  get line(): number {
    return this.#parser?.line ?? 1;
  }

  /** The data-row index of the next record in the current file (bad rows count too). */
  get row(): number {
    return this.#fileRow;
  }

  /** True when every byte fed is parsed into whole records (nothing cut off waits). */
  get atRecordStart(): boolean {
    return (this.#parser?.unparsed ?? '') === '' && this.#decoder.pendingBytes.length === 0;
  }

  /** Hands the rest of the current file over once its header and a data row are read, if any is unread. */
  #handOffRest(): void {
    const input = this.#input;
    const headerRows = this.#options.header === true ? 1 : 0;
    if (
      !(input instanceof ChunkedFileReader) ||
      this.#parser === undefined ||
      this.#plan === undefined ||
      this.#fileRecords <= headerRows ||
      input.size - this.#fileBytes <= 0
    ) {
      return;
    }
    const text = utf8.encode(this.#parser.unparsed);
    const pending = this.#decoder.pendingBytes;
    const leftover = new Uint8Array(text.length + pending.length);
    leftover.set(text, 0);
    leftover.set(pending, text.length);
    this.#remainder = {
      file: this.#file,
      input,
      leftover,
      byteOffset: this.#fileBytes - leftover.length,
      line: this.#parser.line,
      row: this.#fileRow,
    };
    this.#input = undefined;
    this.#parser = undefined;
  }

  async #openNext(): Promise<boolean> {
    const { paths, stream } = this.#options;
    if (this.#queue === undefined) {
      this.#queue = paths === undefined ? [] : await expandPaths(paths, { stage: STAGE });
      if (stream !== undefined) {
        const reader = stream.getReader();
        this.#startFile(this.#options.fileName, {
          read: async () => {
            const { done, value } = await reader.read();
            return done ? undefined : value;
          },
          close: () => reader.cancel(),
        });
        return true;
      }
    }
    const file = this.#queue.shift();
    if (file === undefined) return false;
    const input = await ChunkedFileReader.open(file, STAGE, this.#readBytes);
    if (this.#done) {
      // Cancelled while the file was opening.
      await input.close();
      return false;
    }
    this.#startFile(file, input);
    return true;
  }

  #startFile(file: string, input: ByteInput): void {
    this.#file = file;
    this.#files.push(file);
    this.#input = input;
    this.#decoder = new Utf8ChunkDecoder();
    this.#parser = undefined;
    this.#sniffed = '';
    this.#headerDone = this.#options.header !== true;
    this.#fileRecords = 0;
    this.#fileRow = 0;
    this.#fileBytes = 0;
    // A range of a file without a header: its first record is at the planned line and row.
    const start = this.#streamStart();
    if (start !== undefined && this.#headerDone) this.#fileRow = start.row;
  }

  /** `streamStart`, for stream input (the only input then). */
  #streamStart(): { readonly line: number; readonly row: number } | undefined {
    return this.#options.stream === undefined ? undefined : this.#options.streamStart;
  }

  #decode(chunk: Uint8Array | undefined): string {
    try {
      return chunk === undefined ? this.#decoder.end() : this.#decoder.decode(chunk);
    } catch (error) {
      if (error instanceof Utf16InputError) {
        throw new TfpipeError('CSV_ENCODING', 'not UTF-8', {
          stage: STAGE,
          fatal: true,
          position: { file: this.#file, line: 1, byteOffset: 0 },
          reason: utf16Advice(error.encoding, this.#file),
        });
      }
      if (!(error instanceof InvalidUtf8Error)) throw error;
      // Every chunk decoded before this one has been fed: to the parser, or still held for sniffing.
      const before = this.#parser?.newlinesPushed ?? countNewlines(this.#sniffed, 0, this.#sniffed.length);
      throw new TfpipeError('CSV_ENCODING', 'invalid UTF-8', {
        stage: STAGE,
        fatal: true,
        position: {
          file: this.#file,
          line: before + error.newlinesInChunk + 1,
          byteOffset: error.byteOffset,
        },
        reason: 'the file must be UTF-8; re-export it as UTF-8 (e.g. iconv -f latin1 -t utf-8)',
      });
    }
  }

  #feed(text: string, final: boolean): void {
    if (this.#parser === undefined) {
      this.#sniffed += text;
      if (this.#delimiter === undefined) {
        if (!final && this.#sniffed.length < SNIFF_CHARS) return;
        this.#delimiter = detectDelimiter(this.#sniffed, this.#options.quote, this.#options.comment);
      }
      const start = this.#streamStart();
      this.#parser = this.#createParser(
        this.#delimiter,
        start !== undefined && this.#options.header !== true ? start.line : 1,
      );
      text = this.#sniffed;
      this.#sniffed = '';
    }
    try {
      this.#parser.push(text);
      if (final) this.#parser.end();
    } catch (error) {
      if (error instanceof RecordTooLongError) {
        throw new TfpipeError(
          'RECORD_TOO_LARGE',
          `CSV record longer than ${error.maxRecordLength} characters`,
          {
            stage: STAGE,
            fatal: true,
            position: { file: this.#file, line: error.line },
            reason:
              'a field or a quote that never closes; raise csvSource option maxRecordLength if the data is real',
          },
        );
      }
      if (!(error instanceof UnterminatedQuoteError)) throw error;
      throw new TfpipeError('CSV_PARSE', 'unterminated quoted field', {
        stage: STAGE,
        fatal: true,
        position: { file: this.#file, line: error.line, column: error.column },
        reason: 'the quote opened here is never closed before the end of the file',
      });
    }
  }

  #createParser(delimiter: string, firstLine = 1): CsvParser {
    const { quote, escape, comment, skipEmptyLines, maxRecordLength } = this.#options;
    return new CsvParser(
      { delimiter, quote, escape, comment, skipEmptyLines, maxRecordLength },
      {
        record: (fields, line) => this.#record(fields, line),
        malformed: (line, column, reason) => {
          this.#fileRecords++;
          const row = this.#fileRow++;
          this.#policy.handle(
            new TfpipeError('CSV_PARSE', 'malformed record', {
              stage: STAGE,
              position: { file: this.#file, line, column, row },
              reason,
            }),
          );
        },
      },
      firstLine,
    );
  }

  #record(fields: string[], line: number): void {
    this.#fileRecords++;
    if (!this.#headerDone) {
      this.#headerDone = true;
      this.#header(fields, line);
      // A range of a file read after its header: the next records stand at the planned line and row.
      const start = this.#streamStart();
      if (start !== undefined) {
        this.#parser?.moveToLine(start.line);
        this.#fileRow = start.row;
      }
      return;
    }
    if (this.#plan === undefined) {
      const header = this.#options.header;
      const names =
        header === false ? fields.map((_, index) => `column${index + 1}`) : (header as readonly string[]);
      this.#plan = planColumns(names, this.#options.columns, this.#file, line);
      this.#firstHeaderFile = this.#file;
    }
    const row = this.#fileRow++;
    const expected = this.#plan.header.length;
    if (fields.length !== expected) {
      const tooMany = fields.length > expected;
      this.#policy.handle(
        new TfpipeError('CSV_ROW_LENGTH', `row has ${fields.length} fields, expected ${expected}`, {
          stage: STAGE,
          position: { file: this.#file, line, row, column: tooMany ? expected + 1 : fields.length + 1 },
          reason: tooMany ? 'extra fields from this column on' : 'fields missing from this column on',
        }),
      );
      return;
    }
    this.#out.push({ fields, file: this.#file, line, row });
  }

  #header(fields: string[], line: number): void {
    if (this.#plan === undefined) {
      this.#plan = planColumns(fields, this.#options.columns, this.#file, line);
      this.#firstHeaderFile = this.#file;
      return;
    }
    // Checked before the duplicate check of planColumns would run, so say which files differ.
    if (!sameHeader(this.#plan.header, fields)) {
      throw new TfpipeError('CSV_HEADER', `header differs from the header of ${this.#firstHeaderFile}`, {
        stage: STAGE,
        fatal: true,
        position: { file: this.#file, line, column: firstDifference(this.#plan.header, fields) + 1 },
        reason: `${this.#firstHeaderFile}: ${this.#plan.header.join(',')} | ${this.#file}: ${fields.join(',')}`,
      });
    }
  }

  #finishFile(): void {
    if (this.#options.allowEmpty) return;
    const headerRows = this.#options.header === true ? 1 : 0;
    if (this.#fileRecords === 0) {
      throw new TfpipeError('CSV_EMPTY', 'the file is empty', {
        stage: STAGE,
        fatal: true,
        position: { file: this.#file, line: 1, column: 1 },
        reason: 'pass allowEmpty: true to accept empty files',
      });
    }
    if (this.#fileRecords === headerRows) {
      throw new TfpipeError('CSV_EMPTY', 'the file has a header but no data rows', {
        stage: STAGE,
        fatal: true,
        position: { file: this.#file, line: this.#parser?.line ?? 2, column: 1 },
        reason: 'pass allowEmpty: true to accept header-only files',
      });
    }
  }
}

function firstDifference(a: readonly string[], b: readonly string[]): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}
