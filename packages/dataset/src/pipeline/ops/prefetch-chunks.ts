import type { Chunks } from '../chunks.js';

/**
 * Reads ahead of its consumer (`tf.data.Dataset.prefetch`): while fewer than `elements` elements wait,
 * it asks the source for its next chunk, so the source's work (file reads, decompression, parsing)
 * overlaps the consumer's. It holds at most `elements` elements plus one chunk.
 */
export async function* prefetchChunks<T>(source: Chunks<T>, elements: number): Chunks<T> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: (readonly T[])[] = [];
  let queued = 0;
  let reading: Promise<void> | undefined;
  let done = false;
  let failure: { error: unknown } | undefined;
  const fill = (): void => {
    if (reading !== undefined || done || failure !== undefined || queued >= elements) return;
    reading = iterator.next().then(
      (result) => {
        reading = undefined;
        if (result.done === true) done = true;
        else {
          queue.push(result.value);
          queued += result.value.length;
          fill();
        }
      },
      (error: unknown) => {
        reading = undefined;
        failure = { error };
      },
    );
  };
  try {
    for (;;) {
      fill();
      const chunk = queue.shift();
      if (chunk !== undefined) {
        queued -= chunk.length;
        fill();
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (done) return;
      // Never rejects: a failed read is kept in `failure` and thrown in its turn.
      await reading;
    }
  } finally {
    if (!done && failure === undefined) {
      await reading;
      await iterator.return?.();
    }
  }
}
