import { isUtf8 } from 'node:buffer';
import { TfpipeError } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import { ByteRange, EncodedExample, NumberCell, copyBytes } from '@tfpipe/core/internal';
import type { Positioned, RecordErrorPolicy } from '@tfpipe/core/plugin';
import type { ColumnPlan } from './column-plan.js';
import { CsvRecordReader } from './csv-record-reader.js';
import type { CsvRemainder } from './csv-record-reader.js';
import type { CompleteColumn, CsvRowEncoder } from './csv-row-encoder.js';
import type { ResolvedCsvSourceOptions } from './csv-source-options.js';
import type { CsvChunkJob, CsvThreadHelper } from './csv-thread-helper.js';
import { CellValueError } from './csv-values.js';
import { READ_CHUNK_BYTES } from './file-input.js';
import { indexRecords, recordStride } from './csv-record-index.js';
import type { CsvIndexThread, IndexedChunk } from './csv-index-thread.js';

/** The default of `chunkBytes`: the byte path's step. */
export const DEFAULT_CHUNK_BYTES = 256 * 1024;

const LF = 0x0a;
/** Cell kinds read straight from bytes; the rest are decoded and converted as text. */
const TEXT = 0;
const INT64 = 1;
const FLOAT = 2;
const BYTES = 3;
/** A cell the byte readers leave to the text converter. */
const AS_TEXT = Symbol('as text');
/** Exact powers of ten: a ≤ 15-digit integer times or over one of them rounds once (Clinger's fast path). */
const POWERS = Array.from({ length: 23 }, (_, index) => 10 ** index);
const text = new TextDecoder();
/** Ints of the record index the calling thread fills (a quarter MiB; at least one record). */
const INDEX_INTS = 64 * 1024;
/** Chunks read ahead of the one being converted when a thread helps: the ones it may take. */
const LOOKAHEAD_CHUNKS = 4;
/** Chunks read ahead when the index thread helps: it indexes them while this thread converts. */
const INDEX_LOOKAHEAD_CHUNKS = 3;

/** A chunk read, waiting for its turn; `job` is the thread's conversion of it, if it took it. */
interface QueuedChunk {
  readonly bytes: Uint8Array;
  readonly final: boolean;
  /** Byte offset of its first byte in the file. */
  readonly offset: number;
  job: CsvChunkJob | undefined;
  /** The index thread's record index of it, if it took it. */
  indexed: Promise<IndexedChunk> | undefined;
  /** Its bytes lie in a pooled shared buffer ({@link CsvBytePath}'s index thread path). */
  readonly shared: boolean;
}

/** What {@link CsvBytePath.convertDetached} found in one chunk converted on its own. */
export interface DetachedChunk {
  readonly examples: Positioned<Example>[];
  /** True when the chunk's last record ended at its last byte (nothing left open for the next chunk). */
  readonly complete: boolean;
  /** Lines and data rows the chunk's records took. */
  readonly lines: number;
  readonly rows: number;
  /** Records converted from bytes (not by the text path). */
  readonly records: number;
}
/** True when the byte path can parse with these options: RFC 4180 quoting, ASCII marks, no comments. */
export function byteParsable(options: ResolvedCsvSourceOptions): boolean {
  const { delimiter, quote, escape, comment } = options;
  return (
    delimiter !== undefined &&
    delimiter.charCodeAt(0) < 0x80 &&
    quote.charCodeAt(0) < 0x80 &&
    escape === quote &&
    comment === undefined
  );
}

/**
 * Converts the rest of a CSV file straight from its bytes: records are found by scanning bytes, and
 * plain integers, plain decimals and bytes cells are read from them without making strings (other
 * cells are decoded and go through their column's converter, as on the text path). Anything else,
 * or anything wrong, is left to the text path: from the first such record to the end of its chunk,
 * a text reader continuing the file converts and words the errors (under the same policy), and the
 * byte path takes over again at the first chunk that reader ends on a record's end. Chunks are validated as UTF-8 first
 * (invalid ones go to the text path too, which finds the bad byte). So the Examples, positions and
 * errors are exactly the text path's.
 */
export class CsvBytePath {
  readonly #options: ResolvedCsvSourceOptions;
  readonly #plan: ColumnPlan;
  readonly #encoder: CsvRowEncoder;
  readonly #chunkBytes: number;
  readonly #policy: RecordErrorPolicy;
  readonly #delimiter: number;
  readonly #quote: number;
  readonly #skipEmptyLines: boolean;
  readonly #maxRecordLength: number;
  readonly #fieldCount: number;
  /** Kept-column slot of each field, -1 for a dropped one. */
  readonly #slots: Int32Array;
  readonly #kinds: Uint8Array;
  readonly #cells: unknown[];
  /** Per kept column, the range its bytes cells are given to the encoder as (reused row after row), else undefined. */
  readonly #ranges: (ByteRange | undefined)[];
  /** Per kept column, the holder its float cells are given to the encoder in (reused row after row), else undefined. */
  readonly #numbers: (NumberCell | undefined)[];
  /** Ints per record in a record index, and the index this thread fills (reused chunk after chunk). */
  readonly #stride: number;
  readonly #index: Int32Array;
  /** Records converted from bytes (the text path's are not counted). */
  records = 0;
  /** Chunks whose Examples a worker thread made (`threads`). */
  threadChunks = 0;
  #bytes = 0;
  #file = '';
  #input: CsvRemainder['input'] | undefined;
  #carry: Uint8Array = new Uint8Array(0);
  #eof = true;
  #done = true;
  #line = 1;
  #row = 0;
  #offset = 0;
  /**
   * The text path, reading from a record the byte path left (`byteOffset`, and `fed` bytes since)
   * until a chunk ends on a record's end.
   */
  #text: { reader: CsvRecordReader; byteOffset: number; fed: number } | undefined;
  /** Converts some chunks on a worker thread (set per file by {@link start}). */
  #helper: CsvThreadHelper | undefined;
  /** Indexes the chunks on a worker thread (set per file by {@link start}); they are read into shared memory. */
  #indexer: CsvIndexThread | undefined;
  /** Chunks read and not yet converted, in file order (with a helper). */
  #queue: QueuedChunk[] = [];
  /**
   * Shared chunk buffers given back once their chunk is converted (with the index thread), read into
   * again: a fresh `SharedArrayBuffer` per chunk costs its allocation and page faults.
   */
  #sharedFree: Uint8Array[] = [];
  /** The file offset of the next chunk to read, and whether the final one is read. */
  #readOffset = 0;
  #readAll = false;

  /**
   * @param options - the reader's, with the delimiter settled ({@link byteParsable})
   */
  constructor(
    options: ResolvedCsvSourceOptions,
    plan: ColumnPlan,
    encoder: CsvRowEncoder,
    chunkBytes: number,
    policy: RecordErrorPolicy,
  ) {
    this.#options = options;
    this.#plan = plan;
    this.#encoder = encoder;
    this.#chunkBytes = chunkBytes;
    this.#policy = policy;
    this.#delimiter = options.delimiter!.charCodeAt(0);
    this.#quote = options.quote.charCodeAt(0);
    this.#skipEmptyLines = options.skipEmptyLines;
    this.#maxRecordLength = options.maxRecordLength;
    this.#fieldCount = plan.header.length;
    this.#slots = new Int32Array(this.#fieldCount).fill(-1);
    plan.indexes.forEach((field, slot) => (this.#slots[field] = slot));
    this.#kinds = Uint8Array.from(encoder.columns, cellKind);
    this.#cells = new Array<unknown>(encoder.columns.length).fill(undefined);
    // The encoder copies a range's bytes into the row: no view per cell.
    this.#ranges = Array.from(this.#kinds, (kind) => (kind === BYTES ? new ByteRange() : undefined));
    // A float stored into the cells array would be a new heap number per cell: the holder's field is not.
    this.#numbers = Array.from(this.#kinds, (kind) => (kind === FLOAT ? new NumberCell() : undefined));
    this.#stride = recordStride(this.#fieldCount);
    this.#index = new Int32Array(Math.max(INDEX_INTS, this.#stride));
  }

  /** Bytes read from the files' rest handed over. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True while a file's rest is being converted. */
  get active(): boolean {
    return !this.#done;
  }

  /**
   * Takes over the rest of a file.
   * @param helper - a worker thread that may convert some of its chunks (if it wants this file)
   */
  start(remainder: CsvRemainder, helper?: CsvThreadHelper, indexer?: CsvIndexThread): void {
    this.#helper = helper?.wants(remainder) === true ? helper : undefined;
    this.#indexer = this.#helper === undefined && indexer?.wants(remainder) === true ? indexer : undefined;
    this.#queue = [];
    this.#readOffset = remainder.byteOffset;
    this.#readAll = false;
    this.#file = remainder.file;
    this.#input = remainder.input;
    this.#carry = remainder.leftover;
    this.#eof = false;
    this.#done = false;
    this.#line = remainder.line;
    this.#row = remainder.row;
    this.#offset = remainder.byteOffset;
    this.#text = undefined;
  }

  /** The next Examples (never empty), or undefined when the file is done. */
  async next(): Promise<Positioned<Example>[] | undefined> {
    try {
      while (!this.#done) {
        const chunk = await this.#take();
        if (chunk.final) this.#done = true;
        const examples =
          chunk.job !== undefined
            ? await this.#adopt(chunk)
            : chunk.indexed !== undefined
              ? await this.#convertIndexed(chunk)
              : this.#convert(chunk.bytes, chunk.final);
        // Converted: nothing refers to its bytes any more (cells are copied or decoded, and the
        // index thread has answered), so the next chunks are read into them.
        if (chunk.shared) this.#giveBack(chunk.bytes);
        if (examples.length > 0) return examples;
      }
      this.#input = undefined;
      return undefined;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /**
   * The next chunk in file order. With a helper, up to {@link LOOKAHEAD_CHUNKS} are read ahead and
   * the helper is given those after the first that it has room for (never the final one).
   */
  async #take(): Promise<QueuedChunk> {
    const helper = this.#helper;
    const indexer = this.#indexer;
    const queue = this.#queue;
    const lookahead =
      helper !== undefined ? LOOKAHEAD_CHUNKS : indexer !== undefined ? INDEX_LOOKAHEAD_CHUNKS : 1;
    await indexer?.loaded();
    while (queue.length < lookahead && !this.#readAll) {
      const shared = indexer !== undefined;
      const { bytes, final } = await this.#nextChunk(shared);
      queue.push({
        bytes,
        final,
        offset: this.#readOffset,
        job: undefined,
        indexed: indexer?.index(bytes),
        shared,
      });
      this.#readOffset += bytes.length;
      if (final) this.#readAll = true;
    }
    if (helper !== undefined) {
      await helper.loaded();
      for (let index = 1; index < queue.length; index++) {
        const chunk = queue[index]!;
        if (chunk.job !== undefined || chunk.final) continue;
        const job = helper.convert(chunk.bytes, this.#file, chunk.offset);
        if (job === undefined) break;
        chunk.job = job;
      }
    }
    const head = queue.shift()!;
    // Its turn has come: if the thread has not started it, it is converted here, not waited for.
    if (head.job !== undefined && helper?.takeBack(head.job) === true) head.job = undefined;
    return head;
  }

  /**
   * The thread's Examples of a chunk, positioned from where this file stands, when the thread could
   * convert it exactly as this thread would: the chunk starts where a record starts here, and the
   * thread found no record error and nothing left open at its end. Otherwise converted here.
   * @throws TfpipeError `INTERNAL` when the thread failed or exited
   */
  async #adopt(chunk: QueuedChunk): Promise<Positioned<Example>[]> {
    const reply = await this.#answer(chunk.job!.reply, 'CSV', chunk);
    if (!reply.complete || this.#text !== undefined || this.#offset !== chunk.offset) {
      return this.#convert(chunk.bytes, chunk.final);
    }
    const { bytes, offsets, lengths, lines, rows } = reply;
    const count = offsets.length;
    const examples = new Array<Positioned<Example>>(count);
    const file = this.#file;
    // The thread counted lines from 1 and rows from 0 at the chunk's start.
    const lineBase = this.#line - 1;
    const rowBase = this.#row;
    for (let index = 0; index < count; index++) {
      examples[index] = new EncodedExample(bytes, offsets[index]!, lengths[index]!, true, {
        file,
        line: lineBase + lines[index]!,
        row: rowBase + rows[index]!,
      }) as unknown as Positioned<Example>;
    }
    this.#line += reply.lineCount;
    this.#row += reply.rowCount;
    this.#offset += chunk.bytes.length;
    this.records += reply.records;
    this.threadChunks++;
    return examples;
  }

  /**
   * A thread's answer about `chunk`.
   * @throws TfpipeError `INTERNAL` (fatal, at the chunk's byte offset) when the `thread` failed or exited
   */
  async #answer<Reply>(reply: Promise<Reply>, thread: string, chunk: QueuedChunk): Promise<Reply> {
    try {
      return await reply;
    } catch (error) {
      throw new TfpipeError('INTERNAL', `the ${thread} thread failed`, {
        stage: 'csvToExamples',
        fatal: true,
        position: { file: this.#file, byteOffset: chunk.offset },
        reason: error instanceof Error ? error.message : String(error),
        cause: error,
      });
    }
  }

  /**
   * Converts a chunk with the index thread's record index of it.
   * @throws TfpipeError `INTERNAL` when the thread failed or exited
   */
  async #convertIndexed(chunk: QueuedChunk): Promise<Positioned<Example>[]> {
    const indexed = await this.#answer(chunk.indexed!, 'CSV index', chunk);
    try {
      return this.#convert(chunk.bytes, chunk.final, indexed);
    } finally {
      this.#indexer?.release(indexed);
    }
  }

  /**
   * Converts one chunk on its own, as if a record started at its first byte, on line 1 as row 0
   * (positions are relative: the caller adds where the chunk stands), with byte offsets from
   * `byteOffset`. For a worker thread: never a file's final chunk. Record errors go to the policy.
   */
  convertDetached(bytes: Uint8Array, file: string, byteOffset: number): DetachedChunk {
    this.#file = file;
    this.#line = 1;
    this.#row = 0;
    this.#offset = byteOffset;
    this.#text = undefined;
    const before = this.records;
    const examples = this.#convert(bytes, false);
    return {
      examples,
      complete: this.#text === undefined && this.#offset === byteOffset + bytes.length,
      lines: this.#line - 1,
      rows: this.#row,
      records: this.records - before,
    };
  }

  /** Closes the file. */
  async close(): Promise<void> {
    this.#queue = [];
    const input = this.#input;
    this.#input = undefined;
    this.#done = true;
    await input?.close();
  }

  /**
   * Reads about `chunkBytes` and cuts them after the last newline (the rest waits for the next chunk).
   * @param shared - the chunk is copied into shared memory (for the index thread)
   */
  async #nextChunk(shared: boolean): Promise<{ bytes: Uint8Array; final: boolean }> {
    const pieces = [this.#carry];
    let total = this.#carry.length;
    while (!this.#eof && total < this.#chunkBytes) {
      const read = await this.#input!.read();
      if (read === undefined) {
        this.#eof = true;
        break;
      }
      this.#bytes += read.length;
      pieces.push(read);
      total += read.length;
    }
    let cut = total;
    if (!this.#eof) {
      // No newline at all: the whole lot goes (the text path then holds the record's start).
      let end = total;
      for (let index = pieces.length - 1; index >= 0; index--) {
        const piece = pieces[index]!;
        end -= piece.length;
        const newline = piece.lastIndexOf(LF);
        if (newline >= 0) {
          cut = end + newline + 1;
          break;
        }
      }
    }
    const bytes = shared
      ? this.#sharedChunk(cut)
      : pieces.length === 1 && cut === total
        ? pieces[0]!
        : new Uint8Array(cut);
    const carry = new Uint8Array(total - cut);
    let offset = 0;
    for (const [index, piece] of pieces.entries()) {
      const into = Math.min(piece.length, Math.max(0, cut - offset));
      if (into > 0 && bytes !== piece) copyBytes(bytes, piece.subarray(0, into), offset);
      if (into < piece.length) carry.set(piece.subarray(into), offset + into - cut);
      offset += piece.length;
      // Read here and copied whole: the reader may read into it again (fewer fresh buffers to fault in).
      if (index > 0 && bytes !== piece) this.#input?.recycle(piece);
    }
    this.#carry = carry;
    return { bytes, final: this.#eof && carry.length === 0 };
  }

  /**
   * A view of `length` bytes at the start of a shared buffer: one given back if it is large enough,
   * else a new one with room for a whole chunk (the step and one read).
   */
  #sharedChunk(length: number): Uint8Array {
    let buffer = this.#sharedFree.pop();
    if (buffer === undefined || buffer.length < length) {
      buffer = new Uint8Array(new SharedArrayBuffer(Math.max(length, this.#chunkBytes + READ_CHUNK_BYTES)));
    }
    return buffer.subarray(0, length);
  }

  /** Keeps a converted chunk's shared buffer for the next chunks (as many as are read ahead, at most). */
  #giveBack(bytes: Uint8Array): void {
    if (this.#sharedFree.length <= INDEX_LOOKAHEAD_CHUNKS) {
      this.#sharedFree.push(new Uint8Array(bytes.buffer));
    }
  }

  /**
   * Converts one chunk (whole records, but for the last chunk's end).
   * @param indexed - the chunk's record index from the index thread, else this thread indexes it
   */
  #convert(bytes: Uint8Array, final: boolean, indexed?: IndexedChunk): Positioned<Example>[] {
    const examples: Positioned<Example>[] = [];
    if (this.#text !== undefined) return this.#byText(bytes, final, examples);
    // The text path finds the invalid byte and words the error.
    if (!(indexed?.utf8 ?? isUtf8(bytes))) return this.#byText(bytes, final, examples);
    let position = 0;
    let index = indexed?.index ?? this.#index;
    let count = indexed?.count ?? this.#indexFrom(bytes, 0);
    const stride = this.#stride;
    for (;;) {
      for (let record = 0, at = 0; record < count; record++, at += stride) {
        const next = this.#recordAt(bytes, index, at, examples);
        if (next < 0) return this.#byText(bytes.subarray(position), final, examples);
        position = next;
      }
      if (position >= bytes.length) return examples;
      index = this.#index;
      count = this.#indexFrom(bytes, position);
      // Not a plain record (or no newline before the chunk's end): the text path takes it.
      if (count === 0) return this.#byText(bytes.subarray(position), final, examples);
    }
  }

  /** Indexes the plain records of `bytes` from `from` into the reused {@link #index}; returns their count. */
  #indexFrom(bytes: Uint8Array, from: number): number {
    return indexRecords(
      bytes,
      from,
      this.#delimiter,
      this.#quote,
      this.#fieldCount,
      this.#skipEmptyLines,
      this.#index,
    );
  }

  /** Converts `bytes` on the text path (from a record's start), appending to `examples`. */
  #byText(bytes: Uint8Array, final: boolean, examples: Positioned<Example>[]): Positioned<Example>[] {
    const start = { file: this.#file, line: this.#line, row: this.#row, byteOffset: this.#offset };
    const text = (this.#text ??= {
      reader: CsvRecordReader.continuing(this.#options, this.#policy, this.#plan, start),
      byteOffset: this.#offset,
      fed: 0,
    });
    // Fed as the file reader reads, 64 KiB at a time: the parser is slower on much longer texts.
    let from = 0;
    do {
      const to = Math.min(bytes.length, from + READ_CHUNK_BYTES);
      for (const record of text.reader.feedChunk(bytes.subarray(from, to), final && to === bytes.length)) {
        const example = this.#encoder.encode(record, this.#policy);
        if (example !== undefined) examples.push(example);
      }
      from = to;
    } while (from < bytes.length);
    text.fed += bytes.length;
    if (text.reader.atRecordStart) {
      this.#line = text.reader.line;
      this.#row = text.reader.row;
      this.#offset = text.byteOffset + text.fed;
      this.#text = undefined;
    }
    return examples;
  }

  /**
   * Converts the record at `at` of `index` (see {@link indexRecords}) and returns where the next one
   * starts, or -1 when the text path must take it (a cell that does not convert, or a record longer
   * than `maxRecordLength`).
   */
  #recordAt(bytes: Uint8Array, index: Int32Array, at: number, examples: Positioned<Example>[]): number {
    const start = index[at]!;
    const end = index[at + 1]!;
    const lines = index[at + 2]!;
    if (lines < 0) {
      // An empty line, skipped.
      this.#line++;
      this.#offset++;
      return end;
    }
    const quote = this.#quote;
    const slots = this.#slots;
    const kinds = this.#kinds;
    const cells = this.#cells;
    const ranges = this.#ranges;
    const numbers = this.#numbers;
    const fieldCount = this.#fieldCount;
    let cursor = at + 3;
    for (let field = 0; field < fieldCount; field++, cursor += 2) {
      const slot = slots[field]!;
      if (slot < 0) continue;
      const from = index[cursor]!;
      const stored = index[cursor + 1]!;
      const escaped = stored < 0;
      const to = escaped ? ~stored : stored;
      const kind = kinds[slot]!;
      let value: unknown = AS_TEXT;
      if (to === from || escaped) {
        // Empty and escaped cells go by their text.
      } else if (kind === INT64) value = readInt(bytes, from, to);
      else if (kind === FLOAT) {
        const number = numbers[slot]!;
        if (readFloat(bytes, from, to, number)) value = number;
      } else if (kind === BYTES) value = ranges[slot]!.set(bytes, from, to);
      // By its type: an equality test of a number, a view or the symbol runs V8's generic comparison.
      if (typeof value === 'symbol') {
        let cell = to === from ? '' : text.decode(bytes.subarray(from, to));
        if (escaped) cell = cell.replaceAll(String.fromCharCode(quote, quote), String.fromCharCode(quote));
        try {
          value = this.#encoder.converters[slot]!(cell);
        } catch (error) {
          if (error instanceof CellValueError) return -1;
          throw error;
        }
      }
      cells[slot] = value;
    }
    if (end - start > this.#maxRecordLength) return -1;
    const line = this.#line;
    const row = this.#row;
    const example = this.#encoder.encodeCells(cells, { file: this.#file, line, row }, this.#policy);
    if (example !== undefined) examples.push(example);
    this.records++;
    this.#line = line + lines + 1;
    this.#row = row + 1;
    this.#offset += end - start;
    return end;
  }
}

/** How a column's cells are read: from bytes for plain kinds, by their text for the rest. */
function cellKind(column: CompleteColumn): number {
  if (column.split !== undefined || column.vocabulary !== undefined) return TEXT;
  if (column.kind === 'int64') return column.boolean === true ? TEXT : INT64;
  return column.kind === 'float' ? FLOAT : BYTES;
}

/** `[+-]digits`, at most 15 characters as core's `smallInteger` reads them, or {@link AS_TEXT}. */
function readInt(bytes: Uint8Array, from: number, to: number): number | typeof AS_TEXT {
  if (to - from > 15) return AS_TEXT;
  const sign = bytes[from]!;
  let index = sign === 0x2d || sign === 0x2b ? from + 1 : from;
  if (index === to) return AS_TEXT;
  let value = 0;
  for (; index < to; index++) {
    const digit = bytes[index]! - 0x30;
    if (digit < 0 || digit > 9) return AS_TEXT;
    value = value * 10 + digit;
  }
  return sign === 0x2d ? -value : value;
}

/**
 * `-?digits[.digits][e[+-]digits]` (also `.5`, `5.`) with at most 15 digits and a power of ten of
 * at most 22 after the point is moved: one exact integer times or over one exact power of ten, so
 * one rounding and the same double `Number(text)` gives, stored into `into` (true). Anything else
 * is left to the text converter (false, `into` unchanged). Internal (tests).
 */
export function readFloat(bytes: Uint8Array, from: number, to: number, into: NumberCell): boolean {
  let index = from;
  const negative = bytes[index] === 0x2d;
  if (negative) index++;
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  let dot = false;
  for (; index < to; index++) {
    const byte = bytes[index]!;
    const digit = byte - 0x30;
    if (digit >= 0 && digit <= 9) {
      mantissa = mantissa * 10 + digit;
      digits++;
      if (dot) fraction++;
    } else if (byte === 0x2e && !dot) dot = true;
    else break;
  }
  if (digits === 0 || digits > 15) return false;
  let exponent = 0;
  if (index < to) {
    const marker = bytes[index]!;
    if (marker !== 0x65 && marker !== 0x45) return false;
    index++;
    // Within the cell: with `-` or `+` as the delimiter, the byte after `1e` may be one.
    const sign = index < to ? bytes[index] : undefined;
    const negativeExponent = sign === 0x2d;
    if (sign === 0x2d || sign === 0x2b) index++;
    if (index === to || to - index > 3) return false;
    for (; index < to; index++) {
      const digit = bytes[index]! - 0x30;
      if (digit < 0 || digit > 9) return false;
      exponent = exponent * 10 + digit;
    }
    if (negativeExponent) exponent = -exponent;
  }
  const power = exponent - fraction;
  if (power > 22 || power < -22) return false;
  const value = power >= 0 ? mantissa * POWERS[power]! : mantissa / POWERS[-power]!;
  into.value = negative ? -value : value;
  return true;
}
