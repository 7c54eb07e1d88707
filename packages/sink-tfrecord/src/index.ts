/**
 * @module @tfpipe/sink-tfrecord
 * Write and read TFRecord files in Node: `tfrecordSink` (sharded, gzip/zlib, DALI indexes, manifests,
 * crash-safe temporary names) and `tfrecordSource` (globs, compression detection, CRC verification,
 * resynchronisation after corruption), plus everything of the web entry.
 */

// The web-standard parts (also at '@tfpipe/sink-tfrecord/web')
export {
  crc32c,
  crc32cCombine,
  crc32cRange,
  maskCrc,
  unmaskCrc,
  maskedCrc32c,
  frameRecord,
  frameRecordInto,
  frameInPlace,
  writeRecordHeader,
  FRAME_OVERHEAD,
  HEADER_BYTES,
  frameRecords,
  unframeRecords,
  detectCompression,
  decompressTfrecord,
  readTfrecordStream,
  DEFAULT_MAX_RECORD_BYTES,
  MAX_RECORD_BYTES_LIMIT,
  TfrecordReader,
} from './web.js';
export type {
  Crc32cFunction,
  FrameRecordsOptions,
  UnframeRecordsOptions,
  DecompressTfrecordOptions,
  ReadTfrecordStreamOptions,
  TfRecord,
  LostRegion,
  TfrecordCompression,
  TfrecordReaderSettings,
} from './web.js';

// Node: native CRC, the sink, the source and helpers
export { fastCrc32c, fastCrc32cRange, nativeCrc32cAvailable, NATIVE_CRC_THRESHOLD } from './native-crc32c.js';
export { tfrecordSink } from './tfrecord-sink.js';
export { compressionOfName } from './sink-options.js';
export type { TfrecordSinkOptions } from './sink-options.js';
export type { SinkInput } from './sharded-writer.js';
export { createTfrecordWriter } from './tfrecord-writer.js';
export type { TfrecordWriter, SinkChunk } from './tfrecord-writer.js';
export { tfrecordSource } from './tfrecord-source.js';
export type { TfrecordSourceOptions } from './tfrecord-source.js';
export { readExamples, countRecords, verifyTfrecord } from './read-examples.js';
export type {
  ReadExamplesOptions,
  ReadTfrecordOptions,
  VerifyResult,
  VerifyTfrecordOptions,
} from './read-examples.js';
export { readManifest, MANIFEST_FORMAT, MANIFEST_SUFFIX, MAX_MANIFEST_BYTES } from './manifest.js';
export type { TfrecordManifest, ManifestShard } from './manifest.js';
export { shardName, temporaryPath, releaseTemporary, removeStaleTemporaries } from './shard-names.js';
export type { StaleTemporaries } from './shard-names.js';
export { expandPaths } from './expand-paths.js';
export { openRegularFile } from './open-regular-file.js';
export { fileBytes } from './file-bytes.js';
export { nodeDecompressor } from './node-decompressor.js';
export type { OpenedFile } from './open-regular-file.js';

// Config-file plugins (for `tfpipe run`) and the disk-backed full shuffle
export { plugin, sourcePlugin, tfrecordSinkOptionsSchema, tfrecordSourceOptionsSchema } from './plugin.js';
export type { TfrecordSinkPluginOptions, TfrecordSourcePluginOptions } from './plugin.js';
export { externalShuffle } from './external-shuffle.js';
export type { ExternalShuffleOptions } from './external-shuffle.js';
