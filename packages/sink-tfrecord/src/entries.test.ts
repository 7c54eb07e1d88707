// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as sink from '@tfpipe/sink-tfrecord';
import * as web from '@tfpipe/sink-tfrecord/web';
import * as internal from '@tfpipe/sink-tfrecord/internal';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/sink-tfrecord', () => {
  test('@tfpipe/sink-tfrecord', async () => {
    expect(await exportSurface(packageDirectory, '.', sink)).toMatchInlineSnapshot(`
      [
        "DecompressTfrecordOptions: type",
        "FrameRecordsOptions: type",
        "LostRegion: type",
        "ManifestShard: type",
        "ReadExamplesOptions: type",
        "ReadTfrecordOptions: type",
        "ReadTfrecordStreamOptions: type",
        "SinkChunk: type",
        "SinkInput: type",
        "TfRecord: type",
        "TfrecordCompression: type",
        "TfrecordManifest: type",
        "TfrecordSinkOptions: type",
        "TfrecordSinkPluginOptions: type",
        "TfrecordSourceOptions: type",
        "TfrecordSourcePluginOptions: type",
        "TfrecordWriter: type",
        "UnframeRecordsOptions: type",
        "VerifyResult: type",
        "VerifyTfrecordOptions: type",
        "countRecords: function",
        "createTfrecordWriter: function",
        "decompressTfrecord: function",
        "detectCompression: function",
        "frameRecords: function",
        "plugin: object",
        "readExamples: function",
        "readManifest: function",
        "readTfrecordStream: function",
        "sourcePlugin: object",
        "tfrecordSink: function",
        "tfrecordSinkOptionsSchema: object",
        "tfrecordSource: function",
        "tfrecordSourceOptionsSchema: object",
        "unframeRecords: function",
        "verifyTfrecord: function",
      ]
    `);
  });

  test('@tfpipe/sink-tfrecord/web', async () => {
    expect(await exportSurface(packageDirectory, './web', web)).toMatchInlineSnapshot(`
      [
        "Crc32cFunction: type",
        "DEFAULT_MAX_RECORD_BYTES: number",
        "DecompressTfrecordOptions: type",
        "FrameRecordsOptions: type",
        "FrameWalk: type",
        "FrameWalker: type",
        "HEADER_BYTES: number",
        "LostRegion: type",
        "MAX_RECORD_BYTES_LIMIT: number",
        "ReadTfrecordStreamOptions: type",
        "TfRecord: type",
        "TfrecordCompression: type",
        "TfrecordReader: function",
        "TfrecordReaderSettings: type",
        "UnframeRecordsOptions: type",
        "crc32c: function",
        "decompressTfrecord: function",
        "detectCompression: function",
        "frameRecord: function",
        "frameRecords: function",
        "iterate: function",
        "readTfrecordStream: function",
        "unframeRecords: function",
        "unmaskCrc: function",
        "wasmCrc32c: function",
        "wasmFrameWalker: function",
        "writeRecordHeader: function",
      ]
    `);
  });

  test('@tfpipe/sink-tfrecord/internal', async () => {
    expect(await exportSurface(packageDirectory, './internal', internal)).toMatchInlineSnapshot(`
      [
        "StaleTemporaries: type",
        "compressionOfName: function",
        "crc32c: function",
        "crc32cCombine: function",
        "crc32cRange: function",
        "expandTfrecordPaths: function",
        "fastCrc32c: function",
        "fastCrc32cRange: function",
        "fileBytes: function",
        "frameRecord: function",
        "nodeDecompressor: function",
        "releaseTemporary: function",
        "removeStaleTemporaries: function",
        "shardName: function",
        "temporaryPath: function",
        "unmaskCrc: function",
      ]
    `);
  });
});
