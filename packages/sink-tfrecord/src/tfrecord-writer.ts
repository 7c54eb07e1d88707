import { basename, dirname } from 'node:path';
import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { TfpipeError, type StageReport } from '@tfpipe/core';
import { ShardedWriter, type SinkInput } from './sharded-writer.js';
import { resolveSinkOptions, type TfrecordSinkOptions } from './sink-options.js';

/** A record or a batch of records, as `tfrecordSink` and {@link TfrecordWriter.write} take them. */
export type SinkChunk = SinkInput | readonly SinkInput[];

/**
 * An open TFRecord writer, for code that holds its records in arrays rather than in a stream.
 * `tfrecordSink` is a `WritableStream` around the same writer: same files, same bytes, same options.
 */
export interface TfrecordWriter {
  /**
   * Encodes, frames and buffers a record or an array of records. Returns `undefined` when everything
   * went into the buffer, or a promise when a buffer had to be written out first: await it (or the
   * next `close()`) before writing more. A bad record is skipped under `onError: 'skip'`; otherwise
   * the writer deletes its temporaries and the call throws (or the promise rejects).
   */
  write(chunk: SinkChunk): Promise<void> | undefined;
  /** Flushes and finalises every file (temporary names become final) and resolves with the report. */
  close(): Promise<StageReport>;
  /** Deletes every temporary file; nothing appears under a final name. Never throws. */
  abort(): Promise<void>;
  /** Records, bytes, shards so far (as `reportOf(tfrecordSink(...))` gives them). */
  report(): StageReport;
}

/**
 * Opens a TFRecord writer with `tfrecordSink`'s options: it checks the options at once and the
 * output location before it resolves (`OUTPUT_EXISTS`, `OUTPUT_UNWRITABLE`).
 *
 * @example
 * ```ts
 * const writer = await createTfrecordWriter({ path: 'out/train.tfrecord' });
 * await writer.write(examples); // an array of Examples, SequenceExamples or payload bytes
 * const { records, bytes } = await writer.close();
 * ```
 */
export async function createTfrecordWriter(options: TfrecordSinkOptions): Promise<TfrecordWriter> {
  const writer = openShardedWriter(options);
  try {
    await writer.start();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return wrap(writer);
}

/** The writer behind both faces, not yet started. */
export function openShardedWriter(options: TfrecordSinkOptions): ShardedWriter {
  const resolved = resolveSinkOptions(options, dirname, basename);
  return new ShardedWriter(resolved, new RecordErrorPolicy(options));
}

function wrap(writer: ShardedWriter): TfrecordWriter {
  let pending: Promise<void> | undefined;
  let closed = false;
  const settle = async (): Promise<void> => {
    const waiting = pending;
    pending = undefined;
    await waiting;
  };
  return {
    write(chunk) {
      if (closed) {
        throw new TfpipeError('INVALID_OPTION', 'write() after close() or abort()', {
          stage: 'tfrecordWriter',
          fatal: true,
        });
      }
      // Writes must not overlap: one that waits on a flush holds the ones after it.
      const result =
        pending === undefined ? writer.writeChunk(chunk) : pending.then(() => writer.writeChunk(chunk));
      if (result === undefined) return undefined;
      pending = result;
      const clear = (): void => {
        if (pending === result) pending = undefined;
      };
      result.then(clear, () => undefined);
      return result;
    },
    async close() {
      closed = true;
      await settle();
      await writer.close();
      return writer.report();
    },
    async abort() {
      closed = true;
      await Promise.resolve(pending).catch(() => undefined);
      await writer.abort();
    },
    report: () => writer.report(),
  };
}
