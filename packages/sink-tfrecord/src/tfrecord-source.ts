import { RecordErrorPolicy, attachReport, type Reporter } from '@tfpipe/core/plugin';
import type { RecordErrorOptions } from '@tfpipe/core';
import type { RecordPlace } from './payload-check.js';
import { DEFAULT_MAX_RECORD_BYTES } from './record-unframer.js';
import { checkTfrecordSourceOptions, SOURCE_OPTIONS_STAGE } from './source-options-schema.js';
import type { TfRecord, TfrecordCompression } from './tf-record.js';
import { TfrecordBatches } from './tfrecord-batches.js';

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

/**
 * A `ReadableStream` of the records in TFRecord files: one file, many, or globs. Reads lazily in large
 * chunks through a `FileHandle` (closed at the end, on cancel and on error), detects gzip/zlib per file,
 * checks each length CRC before trusting the length, bounds it by `maxRecordBytes`, then checks the data
 * CRC. Errors use TensorFlow's words with file, byte offset and record index:
 * `corrupted record at byte 1234 (record 17) of a.tfrecord: data CRC mismatch`. Under `onError: 'skip'`
 * it resynchronises on the next frame that verifies and its report's `details.lost` lists every byte
 * range lost. Each record also carries its position (`positionOf`).
 * @throws TfpipeError `INVALID_OPTION` naming the option
 */
export function tfrecordSource(options: TfrecordSourceOptions): ReadableStream<TfRecord> & Reporter {
  checkTfrecordSourceOptions(options);
  const { highWaterMark = 16, ...rest } = options;
  const batches = openBatches(rest);
  // Records parsed but not yet enqueued: a 1 MiB chunk of tiny records holds tens of thousands, and
  // enqueuing them all at once made the stream's queue (an array shifted per read) quadratic.
  let pending: TfRecord[] = [];
  let pendingIndex = 0;
  const stream = new ReadableStream<TfRecord>(
    {
      async pull(controller) {
        if (pendingIndex >= pending.length) {
          const batch = await batches.next();
          if (batch === undefined) return controller.close();
          pending = batch;
          pendingIndex = 0;
        }
        do controller.enqueue(pending[pendingIndex++]);
        while (pendingIndex < pending.length && (controller.desiredSize ?? 0) > 0);
      },
      cancel: (reason) => batches.cancel(reason),
    },
    { highWaterMark },
  );

  return attachReport(stream, () => batches.report());
}

/**
 * The batch reader behind {@link tfrecordSource}, its options checked the same way.
 * @param emit - false to verify and count only (see `TfrecordBatches`). @default true
 * @param check - a payload check given the error policy (see `RecordUnframer`).
 */
export function tfrecordBatches(
  options: Omit<TfrecordSourceOptions, 'highWaterMark'>,
  emit = true,
  check?: (policy: RecordErrorPolicy) => (data: Uint8Array, place: RecordPlace) => boolean,
): TfrecordBatches {
  checkTfrecordSourceOptions(options);
  return openBatches(options, emit, check);
}

/** {@link tfrecordBatches} on options already checked. */
function openBatches(
  options: Omit<TfrecordSourceOptions, 'highWaterMark'>,
  emit = true,
  check?: (policy: RecordErrorPolicy) => (data: Uint8Array, place: RecordPlace) => boolean,
): TfrecordBatches {
  const policy = new RecordErrorPolicy(options);
  return new TfrecordBatches({
    paths: options.paths,
    stage: SOURCE_OPTIONS_STAGE,
    compression: options.compression ?? 'auto',
    maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    chunkBytes: options.chunkBytes ?? 1024 * 1024,
    policy,
    emit,
    ...(check === undefined ? {} : { check: check(policy) }),
  });
}
