import type { RecordErrorPolicy } from '@tfpipe/core/plugin';
import type { StageReport } from '@tfpipe/core';
import { expandTfrecordPaths } from './expand-tfrecord-paths.js';
import { fileBytes } from './file-bytes.js';
import { fastCrc32c } from './native-crc32c.js';
import { nodeDecompressor } from './node-decompressor.js';
import type { RecordPlace } from './payload-check.js';
import { MAX_LISTED_REGIONS } from './record-unframer.js';
import type { LostRegion, TfRecord, TfrecordCompression } from './tf-record.js';
import { TfrecordReader } from './tfrecord-reader.js';

/** What {@link TfrecordBatches} needs: `tfrecordSource`'s options, checked. */
export interface TfrecordBatchesSettings {
  readonly paths: string | readonly string[];
  readonly stage: string;
  readonly compression: TfrecordCompression | 'auto';
  readonly maxRecordBytes: number;
  readonly chunkBytes: number;
  readonly policy: RecordErrorPolicy;
  /** False to verify and count only: `next()` then yields no records. @default true */
  readonly emit?: boolean;
  /** A payload check for every record (see `RecordUnframer`). */
  readonly check?: (data: Uint8Array, place: RecordPlace) => boolean;
}

/**
 * The records of TFRecord files, one source chunk's worth at a time: the engine of `tfrecordSource`,
 * and of `countRecords` and `verifyTfrecord`, which read with `emit: false` and so never pay a stream
 * read, a record object or a payload copy per record. Files are opened one at a time and closed at
 * their end, on `cancel` and on error.
 */
export class TfrecordBatches {
  readonly #settings: TfrecordBatchesSettings;
  #files: string[] | undefined;
  #fileIndex = 0;
  #reader: TfrecordReader | undefined;
  #cancelled = false;
  #records = 0;
  #bytes = 0;
  #lostBytes = 0;
  #lostRegions = 0;
  readonly #lost: LostRegion[] = [];
  readonly #compressions: Record<string, TfrecordCompression> = {};

  constructor(settings: TfrecordBatchesSettings) {
    this.#settings = settings;
  }

  /** The next non-empty batch of records, or `undefined` after the last file (or once cancelled). */
  async next(): Promise<TfRecord[] | undefined> {
    const settings = this.#settings;
    this.#files ??= await expandTfrecordPaths(settings.paths, settings.stage);
    for (;;) {
      if (this.#cancelled) return undefined;
      if (this.#reader === undefined) {
        const file = this.#files[this.#fileIndex];
        if (file === undefined) return undefined;
        this.#reader = new TfrecordReader(
          fileBytes(file, settings.chunkBytes, settings.stage, (count) => (this.#bytes += count)),
          { ...settings, file, crc: fastCrc32c, decompressor: nodeDecompressor },
        );
      }
      const reader = this.#reader;
      let batch: TfRecord[] | undefined;
      try {
        batch = await reader.read();
      } catch (error) {
        // Release the file handle before the error goes up.
        await reader.cancel(error).catch(() => undefined);
        this.#reader = undefined;
        throw error;
      }
      if (this.#cancelled) {
        // Cancelled while this read waited: no more records.
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      if (batch === undefined) {
        this.#retire(reader, this.#files[this.#fileIndex]!);
        this.#reader = undefined;
        this.#fileIndex++;
        continue;
      }
      if (batch.length > 0) return batch;
    }
  }

  /** Reads every file to its end (with `emit: false`, the way to verify and count). */
  async drain(): Promise<void> {
    try {
      while ((await this.next()) !== undefined) {
        // Reading is verifying.
      }
    } finally {
      await this.cancel().catch(() => undefined);
    }
  }

  /** Stops reading and closes the open file. */
  async cancel(reason?: unknown): Promise<void> {
    this.#cancelled = true;
    await this.#reader?.cancel(reason);
  }

  /** Records, bytes read, skips, and every byte range lost (the first {@link MAX_LISTED_REGIONS} listed). */
  report(): StageReport {
    const current = this.#reader?.unframer;
    const policy = this.#settings.policy;
    return {
      stage: this.#settings.stage,
      records: this.#records + (current?.records ?? 0),
      bytes: this.#bytes,
      skipped: policy.skipped,
      skippedErrors: [...policy.errors],
      details: {
        files: this.#files?.length ?? 0,
        compression: { ...this.#compressions },
        lostBytes: this.#lostBytes + (current?.lostBytes ?? 0),
        lostRegions: this.#lostRegions + (current?.lostRegions ?? 0),
        lost: [...this.#lost, ...(current?.lost ?? [])].slice(0, MAX_LISTED_REGIONS),
      },
    };
  }

  #retire(reader: TfrecordReader, file: string): void {
    const unframer = reader.unframer;
    this.#records += unframer.records;
    this.#lostBytes += unframer.lostBytes;
    this.#lostRegions += unframer.lostRegions;
    this.#lost.push(...unframer.lost.slice(0, MAX_LISTED_REGIONS - this.#lost.length));
    if (reader.compression !== undefined) this.#compressions[file] = reader.compression;
  }
}
