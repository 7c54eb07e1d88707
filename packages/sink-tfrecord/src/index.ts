/**
 * @module @tfpipe/sink-tfrecord
 * Write and read TFRecord files in Node: `tfrecordSink` (sharded, gzip/zlib, DALI indexes, manifests,
 * crash-safe temporary names) and `tfrecordSource` (globs, compression detection, CRC verification,
 * resynchronisation after corruption), plus everything of the web entry.
 */

// The web-standard parts (also at '@tfpipe/sink-tfrecord/web')
export {
  frameRecords,
  unframeRecords,
  detectCompression,
  decompressTfrecord,
  readTfrecordStream,
} from './web.js';
export type {
  FrameRecordsOptions,
  UnframeRecordsOptions,
  DecompressTfrecordOptions,
  ReadTfrecordStreamOptions,
  TfRecord,
  LostRegion,
  TfrecordCompression,
} from './web.js';

// Node: the sink, the source, reading back
export { tfrecordSink } from './tfrecord-sink.js';
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
export { readManifest } from './manifest.js';
export type { TfrecordManifest, ManifestShard } from './manifest.js';

// Config-file plugins (for `tfpipe run`)
export { plugin, sourcePlugin, tfrecordSinkOptionsSchema, tfrecordSourceOptionsSchema } from './plugin.js';
export type { TfrecordSinkPluginOptions, TfrecordSourcePluginOptions } from './plugin.js';
