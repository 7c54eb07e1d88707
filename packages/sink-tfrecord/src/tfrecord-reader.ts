import type { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';
import type { Crc32cFunction } from './crc32c.js';
import { damageOf } from './damage.js';
import { decompressTfrecord } from './decompress-tfrecord.js';
import type { RecordPlace } from './payload-check.js';
import { RecordUnframer } from './record-unframer.js';
import type { RecordTake } from './record-unframer.js';
import type { TfRecord, TfrecordCompression } from './tf-record.js';

/** What a {@link TfrecordReader} needs. */
export interface TfrecordReaderSettings {
  readonly file: string;
  readonly stage: string;
  readonly compression: TfrecordCompression | 'auto';
  readonly maxRecordBytes: number;
  readonly policy: RecordErrorPolicy;
  readonly crc: Crc32cFunction;
  /** The gzip/zlib decompressor factory (see `decompressTfrecord`). */
  readonly decompressor?: (format: 'gzip' | 'deflate') => ReadableWritablePair<Uint8Array, Uint8Array>;
  /** False to verify and count without handing records out (see `RecordUnframer`). @default true */
  readonly emit?: boolean;
  /** A payload check (see `RecordUnframer`). */
  readonly check?: (data: Uint8Array, place: RecordPlace) => boolean;
  /** Takes each payload as a range of the read buffer, instead of `check` (see `RecordUnframer`). */
  readonly take?: RecordTake;
  /** False to leave the data CRC to `check` (see `RecordUnframer`). @default true */
  readonly verifyData?: boolean;
  /** A CRC-32C over a range of a buffer, used instead of `crc` (see `RecordUnframer`). */
  readonly crcRange?: (buffer: Uint8Array, view: DataView, start: number, end: number) => number;
}

/**
 * Reads the records of one TFRecord byte stream, one source chunk at a time: decompression (detected
 * or given), then the {@link RecordUnframer}. A damaged compressed stream is a `DECOMPRESS` error,
 * raised only after every record decoded before it has been handed out (so under `onError: 'fail'`
 * too, as TensorFlow does); under `onError: 'skip'` the rest of the stream is a lost region.
 */
export class TfrecordReader {
  readonly unframer: RecordUnframer;
  /** The compression found (or given), once known. */
  compression: TfrecordCompression | undefined;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #settings: TfrecordReaderSettings;
  #done = false;

  constructor(bytes: ReadableStream<Uint8Array>, settings: TfrecordReaderSettings) {
    this.#settings = settings;
    this.unframer = new RecordUnframer(settings);
    this.#reader = decompressTfrecord(bytes, {
      compression: settings.compression,
      file: settings.file,
      stage: settings.stage,
      ...(settings.decompressor === undefined ? {} : { decompressor: settings.decompressor }),
      onCompression: (compression) => {
        this.compression = compression;
      },
    }).getReader();
  }

  /** True once the stream is exhausted. */
  get done(): boolean {
    return this.#done;
  }

  /** The records completed by the next chunk (possibly none), or `undefined` when the stream has ended. */
  async read(): Promise<TfRecord[] | undefined> {
    if (this.#done) return undefined;
    const out: TfRecord[] = [];
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await this.#reader.read();
    } catch (error) {
      this.#done = true;
      if (!TfpipeError.is(error) || error.code !== 'DECOMPRESS') throw error;
      const positioned = error.withPosition({ file: this.#settings.file });
      this.#settings.policy.handle(positioned);
      this.unframer.abandon(positioned, damageOf(error));
      return out;
    }
    if (result.done) {
      this.#done = true;
      this.unframer.end(out);
      return out;
    }
    this.unframer.push(result.value, out);
    return out;
  }

  /** Stops reading and releases the source. */
  async cancel(reason?: unknown): Promise<void> {
    this.#done = true;
    await this.#reader.cancel(reason);
  }
}
