import { attachReport } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';

/** A sink that keeps what it got, for tests. */
export interface CollectingSink<T> extends WritableStream<T>, Reporter {
  /** The chunks written so far, in order. */
  readonly chunks: T[];
  /** True once the stream was closed, false if it was aborted or is still open. */
  readonly closed: boolean;
  /** The abort reason, if it was aborted. */
  readonly abortReason: unknown;
}

/**
 * A deliberately slow sink for backpressure tests: each write takes `delayMs` milliseconds and it
 * accepts one chunk at a time (high-water mark 1), so a well-behaved upstream stalls behind it.
 *
 * @param delayMs - milliseconds each write takes; 0 still yields to the event loop.
 */
export function slowSink<T>(delayMs: number): CollectingSink<T> {
  const chunks: T[] = [];
  const state: { closed: boolean; abortReason: unknown } = { closed: false, abortReason: undefined };
  const stream = new WritableStream<T>(
    {
      async write(chunk) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        chunks.push(chunk);
      },
      close() {
        state.closed = true;
      },
      abort(reason) {
        state.abortReason = reason;
      },
    },
    { highWaterMark: 1 },
  );
  Object.defineProperties(stream, {
    chunks: { value: chunks },
    closed: { get: () => state.closed },
    abortReason: { get: () => state.abortReason },
  });
  return attachReport(stream, () => ({ stage: 'slowSink', records: chunks.length })) as CollectingSink<T>;
}
