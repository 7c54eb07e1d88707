import type { Chunks } from '../chunks.js';

/** The first `count` elements (`tf.data.Dataset.take`); stops reading its source once it has them. */
export async function* takeChunks<T>(source: Chunks<T>, count: number): Chunks<T> {
  if (count <= 0) return;
  let left = count;
  // Leaving the loop early ends the source's pass: its files close.
  for await (const chunk of source) {
    if (chunk.length >= left) {
      yield chunk.length === left ? chunk : chunk.slice(0, left);
      return;
    }
    left -= chunk.length;
    yield chunk;
  }
}

/** Every element after the first `count` (`tf.data.Dataset.skip`). */
export async function* skipChunks<T>(source: Chunks<T>, count: number): Chunks<T> {
  let left = count;
  for await (const chunk of source) {
    if (left >= chunk.length) {
      left -= chunk.length;
      continue;
    }
    yield left === 0 ? chunk : chunk.slice(left);
    left = 0;
  }
}

/**
 * Element `index`, `index + count`, … (`tf.data.Dataset.shard`): each element goes to exactly one of
 * `count` shards.
 */
export async function* shardChunks<T>(source: Chunks<T>, index: number, count: number): Chunks<T> {
  let position = 0;
  for await (const chunk of source) {
    const kept: T[] = [];
    let at = (((index - position) % count) + count) % count;
    for (; at < chunk.length; at += count) kept.push(chunk[at]!);
    position += chunk.length;
    if (kept.length > 0) yield kept;
  }
}
