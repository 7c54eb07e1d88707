import { attachReport } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';

/** Options of {@link fromArray}. */
export interface FromArrayOptions {
  /**
   * How many items the stream may hold ahead of its reader.
   * @default 1
   */
  readonly highWaterMark?: number;
}

/**
 * A source over an array or any iterable, pulled lazily: it takes an item from the iterator only
 * when the consumer wants one, so it behaves like a well-mannered source under backpressure. Its
 * report's `records` counts the items produced so far.
 */
export function fromArray<T>(
  items: Iterable<T>,
  options: FromArrayOptions = {},
): ReadableStream<T> & Reporter {
  let iterator: Iterator<T> | undefined;
  let records = 0;
  const stream = new ReadableStream<T>(
    {
      pull(controller) {
        iterator ??= items[Symbol.iterator]();
        const next = iterator.next();
        if (next.done === true) {
          controller.close();
          return;
        }
        records++;
        controller.enqueue(next.value);
      },
      cancel() {
        iterator?.return?.();
      },
    },
    { highWaterMark: options.highWaterMark ?? 1 },
  );
  return attachReport(stream, () => ({ stage: 'fromArray', records }));
}
