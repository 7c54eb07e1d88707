import type { Chunks, OpenChunks, PassPosition } from '../chunks.js';

/**
 * `epochs` passes over the source (`tf.data.Dataset.repeat`), each a new pass: a shuffle upstream
 * reshuffles, files are read again. `Infinity` repeats forever, unless a pass is empty (as TensorFlow
 * stops a repeat whose input is empty).
 */
export async function* repeatChunks<T>(
  open: OpenChunks<T>,
  epochs: number,
  position: PassPosition,
): Chunks<T> {
  for (let epoch = 0; epoch < epochs; epoch++) {
    let empty = true;
    for await (const chunk of open({ iteration: position.iteration, epochs: [...position.epochs, epoch] })) {
      if (chunk.length > 0) empty = false;
      yield chunk;
    }
    if (empty) return;
  }
}
