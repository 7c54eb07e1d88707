import { RecordErrorPolicy, attachReport, type Reporter } from '@tfpipe/core/plugin';
import type { StageReport } from '@tfpipe/core';
import { crc32c } from './crc32c.js';
import { checkCompression, checkMaxRecordBytes } from './record-options.js';
import { TfrecordReader } from './tfrecord-reader.js';
import type { TfRecord, TfrecordCompression } from './tf-record.js';
import { unframerReport, type UnframeRecordsOptions } from './unframe-records.js';

/** Options of {@link readTfrecordStream}. */
export interface ReadTfrecordStreamOptions extends UnframeRecordsOptions {
  /** The stream's compression; `'auto'` detects gzip and zlib from the first bytes. @default 'auto' */
  readonly compression?: TfrecordCompression | 'auto';
}

const COMPRESSIONS = ['auto', 'none', 'gzip', 'zlib'] as const;

/**
 * The records of a TFRecord byte stream (a `fetch` body, a `Blob.stream()`, a file stream): detects and
 * undoes gzip or zlib with `DecompressionStream`, then unframes and verifies every record as
 * `unframeRecords` does. Pull-based: it reads no further than its consumer.
 */
export function readTfrecordStream(
  bytes: ReadableStream<Uint8Array>,
  options: ReadTfrecordStreamOptions = {},
): ReadableStream<TfRecord> & Reporter {
  const stage = 'readTfrecordStream';
  const policy = new RecordErrorPolicy(options);
  const reader = new TfrecordReader(bytes, {
    file: options.file ?? 'stream',
    stage,
    compression: checkCompression(options.compression, COMPRESSIONS, 'auto', stage),
    maxRecordBytes: checkMaxRecordBytes(options.maxRecordBytes, stage),
    policy,
    crc: options.crc32c ?? crc32c,
  });
  const stream = new ReadableStream<TfRecord>(
    {
      async pull(controller) {
        for (;;) {
          const records = await reader.read();
          if (records === undefined) return controller.close();
          for (const record of records) controller.enqueue(record);
          if (records.length > 0) return;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return attachReport(stream, (): StageReport => unframerReport(stage, reader.unframer, policy));
}
