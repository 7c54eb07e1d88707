import { markLending, STAGE_PASSES_RELEASE } from '../contract/lending.js';
import { attachReport } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';

/** A batch: an array of records travelling as one stream chunk (see the plugin contract). */
export type Batch<T> = readonly T[];

/**
 * Groups records into arrays of `size` (the last one may be shorter), so that the stages and the
 * sink after it pay the per-chunk cost of a WHATWG stream once per batch instead of once
 * per record. `buildExamples` and `tfrecordSink` take batches as they come.
 *
 * @param size - records per batch, a positive integer; 256 to 4096 suits small tabular records.
 */
export function batch<T>(size: number): TransformStream<T, T[]> & Reporter {
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `batch(size): size must be a positive integer, got ${String(size)}`,
      {
        stage: 'batch',
        fatal: true,
      },
    );
  }
  let records = 0;
  let pending: T[] = [];
  const stream = new TransformStream<T, T[]>({
    transform(record, controller) {
      records++;
      pending.push(record);
      if (pending.length >= size) {
        controller.enqueue(pending);
        pending = [];
      }
    },
    flush(controller) {
      if (pending.length > 0) controller.enqueue(pending);
      pending = [];
    },
  });
  // It keeps no record it has passed on: lent buffers may go through it.
  return markLending(
    attachReport(stream, () => ({ stage: 'batch', records })),
    STAGE_PASSES_RELEASE,
  );
}

/**
 * Splits batches back into single records (a chunk that is not an array passes as it is), for a
 * stage or sink that takes one record per chunk.
 */
export function unbatch<T>(): TransformStream<T | Batch<T>, T> & Reporter {
  let records = 0;
  const stream = new TransformStream<T | Batch<T>, T>({
    transform(chunk, controller) {
      if (!Array.isArray(chunk)) {
        records++;
        controller.enqueue(chunk as T);
        return;
      }
      for (const record of chunk as Batch<T>) controller.enqueue(record);
      records += (chunk as Batch<T>).length;
    },
  });
  return markLending(
    attachReport(stream, () => ({ stage: 'unbatch', records })),
    STAGE_PASSES_RELEASE,
  );
}

/** Records in a chunk: an array's length (a batch), else 1. */
export function recordsIn(chunk: unknown): number {
  return Array.isArray(chunk) ? chunk.length : 1;
}
