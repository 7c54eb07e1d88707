import type { Chunks } from '../chunks.js';

/** A `map` function: may return a promise; `index` counts elements from 0 in each pass. */
export type MapFunction<T, U> = (element: T, index: number) => U | PromiseLike<U>;

function isThenable<U>(value: U | PromiseLike<U>): value is PromiseLike<U> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `fn` of every element, in order, with up to `parallel` calls in flight (`tf.data.Dataset.map` with
 * `num_parallel_calls` and `deterministic=True`). A synchronous `fn` costs no promise.
 */
export async function* mapChunks<T, U>(
  source: Chunks<T>,
  fn: MapFunction<T, U>,
  parallel: number,
): Chunks<U> {
  const pending: Promise<U>[] = [];
  let index = 0;
  try {
    for await (const chunk of source) {
      const out: U[] = [];
      for (const element of chunk) {
        const result = fn(element, index++);
        if (pending.length === 0 && !isThenable(result)) {
          out.push(result);
          continue;
        }
        const promise = Promise.resolve(result);
        // Awaited later, in order; this keeps a rejection that waits its turn from being "unhandled".
        promise.catch(() => undefined);
        pending.push(promise);
        if (pending.length >= parallel) out.push(await pending.shift()!);
      }
      if (out.length > 0) yield out;
    }
    while (pending.length > 0) yield [await pending.shift()!];
  } finally {
    pending.length = 0;
  }
}

/** The elements for which `predicate` holds (`tf.data.Dataset.filter`); it may return a promise. */
export async function* filterChunks<T>(
  source: Chunks<T>,
  predicate: (element: T, index: number) => boolean | PromiseLike<boolean>,
): Chunks<T> {
  let index = 0;
  for await (const chunk of source) {
    const kept: T[] = [];
    for (const element of chunk) {
      const verdict = predicate(element, index++);
      if (isThenable(verdict) ? await verdict : verdict) kept.push(element);
    }
    if (kept.length > 0) yield kept;
  }
}
