/**
 * @module @tfpipe/sink-tfrecord/web
 * The TFRecord format with web-standard APIs only (no `node:*`): streaming framing and unframing
 * with gzip and zlib through `CompressionStream`/`DecompressionStream`, compression detection and
 * a whole-stream reader. Runs in browsers, workers, Deno and Node.
 */
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
export type { TfRecord, LostRegion, TfrecordCompression } from './tf-record.js';
// The chunk-at-a-time reader under readTfrecordStream, for readers that batch (`@tfpipe/dataset`)
export { TfrecordReader } from './tfrecord-reader.js';
export type { TfrecordReaderSettings } from './tfrecord-reader.js';

// Framing and CRC primitives and the reader's record limits, for readers in the browser
// (`@tfpipe/dataset`, the viewer) and tests that build records by hand
export { crc32c, unmaskCrc } from './crc32c.js';
export { wasmCrc32c } from './wasm-crc32c.js';
export { wasmFrameWalker } from './wasm-frame-walker.js';
export type { FrameWalk, FrameWalker } from './wasm-frame-walker.js';
export type { Crc32cFunction } from './crc32c.js';
export { frameRecord, writeRecordHeader, HEADER_BYTES } from './frame-record.js';
export { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_LIMIT } from './record-unframer.js';
