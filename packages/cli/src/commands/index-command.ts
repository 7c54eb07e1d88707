import type { Command } from '../command.js';

/** `tfpipe index`: DALI `.idx` files for TFRecord files that lack one. */
export const indexCommand: Command = {
  name: 'index',
  summary: 'write DALI .idx index files (offset and size per record)',
  usage: `Usage: tfpipe index FILE... [options]

Writes FILE.idx beside each uncompressed TFRecord file (paths or globs): one "<offset> <size>" line
per record, the index NVIDIA DALI, vahidk/tfrecord and @tfpipe/dataset's record sharding read (as
tfrecordSink({ index: true }) writes it). Every CRC is verified first; an existing index is replaced,
and a file that fails leaves none half-written.

Options:
  --max-record-bytes N  refuse records longer than N bytes (default 256M)`,
  options: { 'max-record-bytes': { type: 'string' } },
  load: async () => (await import('./index-files.js')).indexFiles,
};
