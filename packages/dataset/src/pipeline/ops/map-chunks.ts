import type { Chunks } from '../chunks.js';

/** A `map` function: may return a promise; `index` counts elements from 0 in each pass. */
export type MapFunction<T, U> = (element: T, index: number) => U | PromiseLike<U>;

function isThenable<U>(value: U | PromiseLike<U>): value is PromiseLike<U> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `fn` of every element, in order, with up to `parallel` calls in flight (`tf.data.Dataset.map` with
 * `num_parallel_calls` and `deterministic=True`). A synchronous `fn` costs no promise. When a call
 * fails (or the source does), every element before it goes out first: those mapped, then those whose
 * calls started before the failure, in order; the elements after it are dropped, computed or not.
 */
export async function* mapChunks<T, U>(
  source: Chunks<T>,
  fn: MapFunction<T, U>,
  parallel: number,
): Chunks<U> {
  const pending: Promise<U>[] = [];
  // True while this awaits the oldest call: if that call failed, the calls after it are dropped.
  let awaitingCall = false;
  let out: U[] = [];
  let index = 0;
  try {
    for await (const chunk of source) {
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
        if (pending.length >= parallel) {
          awaitingCall = true;
          out.push(await pending.shift()!);
          awaitingCall = false;
        }
      }
      if (out.length > 0) yield out;
      out = [];
    }
    awaitingCall = true;
    while (pending.length > 0) yield [await pending.shift()!];
  } catch (error) {
    if (out.length > 0) yield out;
    // A synchronous throw or the source's failure: the calls in flight began before it, so their
    // elements go out first, and a failure among them, being earlier, is the one raised.
    if (!awaitingCall) while (pending.length > 0) yield [await pending.shift()!];
    throw error;
  } finally {
    pending.length = 0;
  }
}

/**
 * The elements for which `predicate` holds (`tf.data.Dataset.filter`); it may return a promise. When
 * it fails, the elements kept before the failing one go out first.
 */
export async function* filterChunks<T>(
  source: Chunks<T>,
  predicate: (element: T, index: number) => boolean | PromiseLike<boolean>,
): Chunks<T> {
  let index = 0;
  let kept: T[] = [];
  try {
    for await (const chunk of source) {
      for (const element of chunk) {
        const verdict = predicate(element, index++);
        if (isThenable(verdict) ? await verdict : verdict) kept.push(element);
      }
      if (kept.length > 0) yield kept;
      kept = [];
    }
  } catch (error) {
    if (kept.length > 0) yield kept;
    throw error;
  }
}
