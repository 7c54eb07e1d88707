import {
  RecordErrorPolicy,
  TfpipeError,
  attachReport,
  type RecordErrorOptions,
  type Reporter,
  type StageReport,
} from '@tfpipe/core';
import { expandPaths } from './expand-paths.js';
import { fileBytes } from './file-bytes.js';
import { fastCrc32c } from './native-crc32c.js';
import { nodeDecompressor } from './node-decompressor.js';
import { checkCompression, checkMaxRecordBytes } from './record-options.js';
import { MAX_LISTED_REGIONS } from './record-unframer.js';
import type { LostRegion, TfRecord, TfrecordCompression } from './tf-record.js';
import { TfrecordReader } from './tfrecord-reader.js';

/** Options of {@link tfrecordSource}. */
export interface TfrecordSourceOptions extends RecordErrorOptions {
  /**
   * Files to read, in order: paths, or globs (`*`, `?`, `[…]`, `**`, `{a,b}`; matches sorted, dot-files
   * and `.idx`/`.manifest.json` sidecars left out).
   */
  readonly paths: string | readonly string[];
  /** The files' compression; `'auto'` detects gzip and zlib per file from its first bytes. @default 'auto' */
  readonly compression?: TfrecordCompression | 'auto';
  /**
   * The largest record payload accepted, in bytes; a longer (CRC-valid) length is `RECORD_TOO_LARGE`
   * and is never allocated.
   * @default 268435456 (256 MiB)
   */
  readonly maxRecordBytes?: number;
  /** Records the stream may queue ahead of its consumer (it reads whole chunks, so it may hold one chunk's worth more). @default 16 */
  readonly highWaterMark?: number;
  /** Bytes per file read. @default 1048576 (1 MiB) */
  readonly chunkBytes?: number;
}

const STAGE = 'tfrecordSource';
const COMPRESSIONS = ['auto', 'none', 'gzip', 'zlib'] as const;

function invalid(message: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', message, { stage: STAGE, fatal: true });
}

/**
 * A `ReadableStream` of the records in TFRecord files: one file, many, or globs. Reads lazily in large
 * chunks through a `FileHandle` (closed at the end, on cancel and on error), detects gzip/zlib per file,
 * checks each length CRC before trusting the length, bounds it by `maxRecordBytes`, then checks the data
 * CRC. Errors use TensorFlow's words with file, byte offset and record index:
 * `corrupted record at byte 1234 (record 17) of a.tfrecord: data CRC mismatch`. Under `onError: 'skip'`
 * it resynchronises on the next frame that verifies and its report's `details.lost` lists every byte
 * range lost. Each record also carries its position (`positionOf`).
 */
export function tfrecordSource(options: TfrecordSourceOptions): ReadableStream<TfRecord> & Reporter {
  if (typeof options !== 'object' || options === null)
    throw invalid('tfrecordSource needs an options object');
  const { paths } = options;
  if (
    !(typeof paths === 'string'
      ? paths !== ''
      : Array.isArray(paths) && paths.every((path) => typeof path === 'string' && path !== ''))
  ) {
    throw invalid('paths must be a non-empty string or an array of them');
  }
  const compression = checkCompression(options.compression, COMPRESSIONS, 'auto', STAGE);
  const maxRecordBytes = checkMaxRecordBytes(options.maxRecordBytes, STAGE);
  const highWaterMark = options.highWaterMark ?? 16;
  const chunkBytes = options.chunkBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(highWaterMark) || highWaterMark < 0)
    throw invalid(`highWaterMark must be a non-negative integer, got ${highWaterMark}`);
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1)
    throw invalid(`chunkBytes must be a positive integer, got ${chunkBytes}`);
  const policy = new RecordErrorPolicy(options);
  let files: string[] | undefined;
  let fileIndex = 0;
  let reader: TfrecordReader | undefined;
  let records = 0;
  let bytes = 0;
  let cancelled = false;
  const lost: LostRegion[] = [];
  let lostBytes = 0;
  let lostRegions = 0;
  const compressions: Record<string, TfrecordCompression> = {};

  const retire = (current: TfrecordReader, file: string): void => {
    lostBytes += current.unframer.lostBytes;
    lostRegions += current.unframer.lostRegions;
    lost.push(...current.unframer.lost.slice(0, MAX_LISTED_REGIONS - lost.length));
    if (current.compression !== undefined) compressions[file] = current.compression;
  };

  const stream = new ReadableStream<TfRecord>(
    {
      async pull(controller) {
        files ??= await expandPaths(paths, STAGE);
        for (;;) {
          if (cancelled) return;
          if (reader === undefined) {
            const file = files[fileIndex];
            if (file === undefined) return controller.close();
            reader = new TfrecordReader(
              fileBytes(file, chunkBytes, STAGE, (count) => (bytes += count)),
              {
                file,
                stage: STAGE,
                compression,
                maxRecordBytes,
                policy,
                crc: fastCrc32c,
                decompressor: nodeDecompressor,
              },
            );
          }
          let batch: TfRecord[] | undefined;
          try {
            batch = await reader.read();
          } catch (error) {
            // Release the file handle before the stream errors.
            await reader.cancel(error).catch(() => undefined);
            reader = undefined;
            throw error;
          }
          if (cancelled) {
            // Cancelled while this pull waited: the stream takes no more records.
            await reader.cancel().catch(() => undefined);
            return;
          }
          if (batch === undefined) {
            retire(reader, files[fileIndex]!);
            reader = undefined;
            fileIndex++;
            continue;
          }
          for (const record of batch) controller.enqueue(record);
          records += batch.length;
          if (batch.length > 0) return;
        }
      },
      async cancel(reason) {
        cancelled = true;
        await reader?.cancel(reason);
      },
    },
    { highWaterMark },
  );

  return attachReport(stream, (): StageReport => {
    const current = reader?.unframer;
    return {
      stage: STAGE,
      records,
      bytes,
      skipped: policy.skipped,
      skippedErrors: [...policy.errors],
      details: {
        files: files?.length ?? 0,
        compression: { ...compressions },
        lostBytes: lostBytes + (current?.lostBytes ?? 0),
        lostRegions: lostRegions + (current?.lostRegions ?? 0),
        lost: [...lost, ...(current?.lost ?? [])].slice(0, MAX_LISTED_REGIONS),
      },
    };
  });
}
