/**
 * @module @tfpipe/sink-tfrecord/web
 * The TFRecord format with web-standard APIs only (no `node:*`): CRC-32C and its mask, framing, and
 * streaming framing/unframing with gzip and zlib through `CompressionStream`/`DecompressionStream`.
 * Runs in browsers, workers, Deno and Node.
 */
export { crc32c, crc32cCombine, crc32cRange, maskCrc, unmaskCrc, maskedCrc32c } from './crc32c.js';
export type { Crc32cFunction } from './crc32c.js';
export {
  frameRecord,
  frameRecordInto,
  frameInPlace,
  writeRecordHeader,
  FRAME_OVERHEAD,
  HEADER_BYTES,
} from './frame-record.js';
export { frameRecords } from './frame-records.js';
export type { FrameRecordsOptions } from './frame-records.js';
export { unframeRecords } from './unframe-records.js';
export type { UnframeRecordsOptions } from './unframe-records.js';
export { detectCompression } from './detect-compression.js';
export { decompressTfrecord } from './decompress-tfrecord.js';
export type { DecompressTfrecordOptions } from './decompress-tfrecord.js';
export { readTfrecordStream } from './read-tfrecord-stream.js';
export { iterate } from './iterate-stream.js';
export type { ReadTfrecordStreamOptions } from './read-tfrecord-stream.js';
export { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_LIMIT } from './record-unframer.js';
export type { TfRecord, LostRegion, TfrecordCompression } from './tf-record.js';
