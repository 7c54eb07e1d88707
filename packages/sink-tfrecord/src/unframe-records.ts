import { RecordErrorPolicy, attachReport, type Reporter } from '@tfpipe/core/plugin';
import type { RecordErrorOptions, StageReport } from '@tfpipe/core';
import { crc32c, type Crc32cFunction } from './crc32c.js';
import { checkMaxRecordBytes } from './record-options.js';
import { RecordUnframer } from './record-unframer.js';
import type { TfRecord } from './tf-record.js';

/** Options of {@link unframeRecords}. */
export interface UnframeRecordsOptions extends RecordErrorOptions {
  /** The name used in records and error positions. @default 'stream' */
  readonly file?: string;
  /**
   * The largest record payload accepted, in bytes. A header whose length CRC holds but whose length
   * exceeds it is `RECORD_TOO_LARGE`; nothing of that size is ever allocated.
   * @default 268435456 (256 MiB)
   */
  readonly maxRecordBytes?: number;
  /** The CRC-32C implementation (the Node entry passes its native-backed one). @default the JS `crc32c` */
  readonly crc32c?: Crc32cFunction;
}

/**
 * A `TransformStream` from uncompressed TFRecord bytes, in chunks of any size, to {@link TfRecord}s.
 * Each header's length CRC is checked before its length is trusted, the length is bounded by
 * `maxRecordBytes`, then the data CRC is checked. Errors speak TensorFlow's language:
 * `corrupted record at byte N` (`RECORD_CRC`, reason `length CRC mismatch` or `data CRC mismatch`),
 * `truncated record at byte N` (`RECORD_TRUNCATED`), `RECORD_TOO_LARGE`, with file, byte offset and
 * record index. Under `onError: 'skip'` it resynchronises on the next frame that verifies, and its
 * report's `details.lost` lists the byte ranges given up.
 */
export function unframeRecords(
  options: UnframeRecordsOptions = {},
): TransformStream<Uint8Array, TfRecord> & Reporter {
  const stage = 'unframeRecords';
  const policy = new RecordErrorPolicy(options);
  const unframer = new RecordUnframer({
    file: options.file ?? 'stream',
    stage,
    maxRecordBytes: checkMaxRecordBytes(options.maxRecordBytes, stage),
    policy,
    crc: options.crc32c ?? crc32c,
  });
  const stream = new TransformStream<Uint8Array, TfRecord>({
    transform(chunk, controller) {
      const out: TfRecord[] = [];
      unframer.push(chunk, out);
      for (const record of out) controller.enqueue(record);
    },
    flush(controller) {
      const out: TfRecord[] = [];
      unframer.end(out);
      for (const record of out) controller.enqueue(record);
    },
  });
  return attachReport(stream, (): StageReport => unframerReport(stage, unframer, policy));
}

/** The stage report of a reader: records, bytes, skips and the byte ranges lost. */
export function unframerReport(
  stage: string,
  unframer: RecordUnframer,
  policy: RecordErrorPolicy,
): StageReport {
  return {
    stage,
    records: unframer.records,
    bytes: unframer.bytes,
    skipped: policy.skipped,
    skippedErrors: [...policy.errors],
    details: { lostBytes: unframer.lostBytes, lostRegions: unframer.lostRegions, lost: [...unframer.lost] },
  };
}
