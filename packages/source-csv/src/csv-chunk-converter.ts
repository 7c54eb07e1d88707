import { ENCODED, RecordErrorPolicy, TfpipeError, encodeExample } from '@tfpipe/core';
import type { Position, TfpipeErrorCode } from '@tfpipe/core';
import type { ColumnPlan } from './column-plan.js';
import { CsvRecordReader } from './csv-record-reader.js';
import type { CsvSchema } from './csv-schema.js';
import type { ResolvedCsvSourceOptions } from './csv-source-options.js';
import { CsvRowEncoder } from './csv-row-encoder.js';
import { READ_CHUNK_BYTES } from './file-input.js';

/** What a conversion worker needs to know once: how to parse and what to encode. Structured-cloneable. */
export interface ChunkConfig {
  /** The reader's options, the delimiter settled, without a stream. */
  readonly options: ResolvedCsvSourceOptions;
  readonly plan: ColumnPlan;
  readonly schema: CsvSchema;
}

/** A `TfpipeError` as it crosses threads: its facts, with the position relative to the converter's start. */
export interface SentError {
  readonly code: TfpipeErrorCode;
  readonly detail: string;
  readonly stage: string | undefined;
  readonly fatal: boolean;
  readonly reason: string | undefined;
  readonly position: Position;
  /** Examples of the same output before it. */
  readonly before: number;
}

/**
 * What one {@link ChunkConverter.convert} call made. Lines, rows and byte offsets are relative to the
 * first byte the converter was fed: line 1, row 0, byte 0.
 */
export interface ChunkOutput {
  /** The Examples' wire bytes, each with {@link FRAME_ROOM_BEFORE} free bytes before it and 4 after. */
  readonly data: Uint8Array;
  /** Each Example's wire length, in order. */
  readonly lengths: Int32Array;
  /** Each Example's relative line. */
  readonly lines: Int32Array;
  /** Each Example's relative data row. */
  readonly rows: Int32Array;
  /** The record errors the converter's skip policy took, in order. */
  readonly errors: SentError[];
  /** The fatal error that stopped the conversion, if any (nothing after it was converted). */
  readonly fatal: SentError | undefined;
  /** Lines passed since the converter's start. */
  readonly linesPassed: number;
  /** Data rows passed since the converter's start (bad ones too). */
  readonly rowsPassed: number;
  /** Bytes fed and not yet parsed into whole records: a record cut off at the end. */
  readonly unparsed: number;
}

/** Free bytes before each Example in {@link ChunkOutput.data}: its TFRecord frame header's room. */
export const FRAME_ROOM_BEFORE = 12;
const FRAME_ROOM = FRAME_ROOM_BEFORE + 4;

/** A TfpipeError as {@link SentError}. */
function sendError(error: TfpipeError, before: number): SentError {
  return {
    code: error.code,
    detail: error.detail,
    stage: error.stage,
    fatal: error.fatal,
    reason: error.reason,
    position: error.position,
    before,
  };
}

/**
 * A {@link SentError} as a TfpipeError again, its position moved to where the converter started:
 * `line` (1-based), `row` and `byteOffset` of its first byte.
 */
export function receiveError(sent: SentError, base: { line: number; row: number; byteOffset: number }) {
  const { position } = sent;
  return new TfpipeError(sent.code, sent.detail, {
    fatal: sent.fatal,
    ...(sent.stage === undefined ? {} : { stage: sent.stage }),
    ...(sent.reason === undefined ? {} : { reason: sent.reason }),
    position: {
      ...position,
      ...(position.line === undefined ? {} : { line: position.line + base.line - 1 }),
      ...(position.row === undefined ? {} : { row: position.row + base.row }),
      ...(position.byteOffset === undefined ? {} : { byteOffset: position.byteOffset + base.byteOffset }),
    },
  });
}

/**
 * Parses, converts and encodes CSV text that continues a file (from a record's start), chunk after
 * chunk, into Examples' wire bytes: what a conversion worker runs, and what the calling thread runs
 * when a chunk turns out not to start a record. Record errors are collected, not thrown.
 */
export class ChunkConverter {
  readonly #reader: CsvRecordReader;
  readonly #encoder: CsvRowEncoder;
  readonly #policy: RecordErrorPolicy;
  #errors: SentError[] = [];
  #count = 0;

  /** @param encoder - reused across converters of one config (it compiles code) */
  constructor(config: ChunkConfig, file: string, encoder = new CsvRowEncoder(config.schema, config.plan)) {
    this.#encoder = encoder;
    this.#policy = new RecordErrorPolicy({
      onError: 'skip',
      onSkip: (error) => this.#errors.push(sendError(error, this.#count)),
    });
    this.#reader = CsvRecordReader.continuing(config.options, this.#policy, config.plan, file);
  }

  /** Converts the next bytes (`final`: the file ends with them). */
  convert(bytes: Uint8Array, final: boolean): ChunkOutput {
    this.#errors = [];
    this.#count = 0;
    let data = new Uint8Array(bytes.length * 2 + 4096);
    let used = 0;
    const lengths: number[] = [];
    const lines: number[] = [];
    const rows: number[] = [];
    let fatal: SentError | undefined;
    try {
      // Fed as the file reader reads, 64 KiB at a time, and encoded as parsed: the parser is slower
      // on much longer texts, and a chunk's records all alive at once would outlive the young heap.
      let start = 0;
      do {
        const end = Math.min(bytes.length, start + READ_CHUNK_BYTES);
        const records = this.#reader.feedChunk(bytes.subarray(start, end), final && end === bytes.length);
        start = end;
        for (const record of records) {
          const example = this.#encoder.encode(record, this.#policy);
          if (example === undefined) continue;
          const wire = (example as { readonly [ENCODED]?: Uint8Array })[ENCODED] ?? encodeExample(example);
          if (used + wire.length + FRAME_ROOM > data.length) {
            const grown = new Uint8Array(Math.max(data.length * 2, used + wire.length + FRAME_ROOM));
            grown.set(data.subarray(0, used));
            data = grown;
          }
          data.set(wire, used + FRAME_ROOM_BEFORE);
          used += wire.length + FRAME_ROOM;
          lengths.push(wire.length);
          lines.push(record.line);
          rows.push(record.row);
          this.#count++;
        }
      } while (start < bytes.length);
    } catch (error) {
      if (!TfpipeError.is(error)) throw error;
      fatal = sendError(error, this.#count);
    }
    return {
      data: data.subarray(0, used),
      lengths: Int32Array.from(lengths),
      lines: Int32Array.from(lines),
      rows: Int32Array.from(rows),
      errors: this.#errors,
      fatal,
      linesPassed: this.#reader.linesPassed,
      rowsPassed: this.#reader.rowsPassed,
      unparsed: fatal === undefined ? this.#reader.unparsedBytes : 0,
    };
  }
}
