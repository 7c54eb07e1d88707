import { CHUNK_ELEMENTS } from '../chunks.js';
import type { Chunks } from '../chunks.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * TensorFlow's buffered shuffle (`tf.data.Dataset.shuffle`): fills a buffer of `bufferSize` elements,
 * then hands out a random one for each element that comes in, taking its place; at the end it empties
 * the buffer in random order. It holds at most `bufferSize` elements beyond the source chunk it is
 * reading, so memory is bounded by the buffer; `bufferSize` ≥ the dataset's size is a full shuffle.
 */
export async function* shuffleChunks<T>(
  source: Chunks<T>,
  bufferSize: number,
  random: SeededRandom,
): Chunks<T> {
  const buffer: T[] = [];
  for await (const chunk of source) {
    const out: T[] = [];
    for (const element of chunk) {
      if (buffer.length < bufferSize) {
        buffer.push(element);
        continue;
      }
      const at = random.below(bufferSize);
      out.push(buffer[at]!);
      buffer[at] = element;
    }
    if (out.length > 0) yield out;
  }
  while (buffer.length > 0) {
    const out: T[] = [];
    while (buffer.length > 0 && out.length < CHUNK_ELEMENTS) {
      const at = random.below(buffer.length);
      out.push(buffer[at]!);
      buffer[at] = buffer[buffer.length - 1]!;
      buffer.pop();
    }
    yield out;
  }
}
