import { attachReport, type Reporter } from '@tfpipe/core/plugin';
import { markLending, SINK_RELEASES } from '@tfpipe/core/internal';
import { openShardedWriter, type SinkChunk } from './tfrecord-writer.js';
import type { TfrecordSinkOptions } from './sink-options.js';

/**
 * A `WritableStream` that writes Examples, SequenceExamples or already-serialized payloads to TFRecord
 * files: one `path`, or shards `PREFIX-00000-of-00008.tfrecord` in a `directory`, cut by record count,
 * by bytes, or dealt round-robin into a fixed number. A chunk may be one record or a batch (an array
 * of records, as `batch(size)` or `buildExamples` on batches emit): a batch writes the same bytes as
 * its records one by one, with `onError` applied per record, and costs one stream chunk instead of
 * many. Records are encoded and framed straight into a 4 MiB buffer and written whole. Every file is
 * written under a temporary name (`.NAME.tfpipe-tmp-<pid>-<random>`), synced, and renamed only when
 * the stream closes; aborting the stream, or any error, deletes the temporaries. The report
 * (`reportOf`) gives records, bytes, shards and the shard being written. `createTfrecordWriter` is
 * the same writer without the stream. A record carrying core's `RELEASE_HOOK` hook (a lent buffer, see
 * `lendIfSafe`) is released once its bytes are copied or written, or once it is skipped.
 *
 * @throws TfpipeError `INVALID_OPTION` at once for bad options; the stream errors with `OUTPUT_EXISTS`,
 * `OUTPUT_UNWRITABLE`, `DISK_FULL`, `IO` (fatal) or a record error (`FEATURE_TYPE`, `PROTO_DECODE`, codec
 * errors) under the `onError` policy.
 */
export function tfrecordSink(options: TfrecordSinkOptions): WritableStream<SinkChunk> & Reporter {
  const writer = openShardedWriter(options);
  const stream = new WritableStream<SinkChunk>({
    start: async () => {
      try {
        await writer.start();
      } catch (error) {
        await writer.abort();
        throw error;
      }
    },
    write: (chunk) => writer.writeChunk(chunk),
    close: () => writer.close(),
    abort: () => writer.abort(),
  });
  // Records' bytes are copied (or written) by the time a write settles: lent buffers may be released.
  return markLending(
    attachReport(stream, () => writer.report()),
    SINK_RELEASES,
  );
}
