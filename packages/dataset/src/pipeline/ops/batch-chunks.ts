import type { Chunks } from '../chunks.js';

/**
 * Consecutive elements in arrays of `size` (`tf.data.Dataset.batch`); the last, shorter array is kept
 * unless `dropRemainder`. `assemble` turns each array into the batch handed on. When `assemble` fails
 * (or the source does), the batches completed before go out first; the batch the failure falls in is
 * not handed out (as in tf.data: a short batch would look like the end of the data).
 */
export async function* batchChunks<T, B>(
  source: Chunks<T>,
  size: number,
  dropRemainder: boolean,
  assemble: (elements: T[]) => B,
): Chunks<B> {
  let open: T[] = [];
  let out: B[] = [];
  try {
    for await (const chunk of source) {
      let at = 0;
      while (at < chunk.length) {
        if (open.length === 0 && at + size <= chunk.length) {
          // A whole batch straight from the chunk: no element is pushed one by one.
          out.push(assemble(chunk.slice(at, at + size)));
          at += size;
          continue;
        }
        open.push(chunk[at++]!);
        if (open.length === size) {
          out.push(assemble(open));
          open = [];
        }
      }
      if (out.length > 0) yield out;
      out = [];
    }
  } catch (error) {
    if (out.length > 0) yield out;
    throw error;
  }
  if (open.length > 0 && !dropRemainder) yield [assemble(open)];
}
