import { markLending, STAGE_PASSES_RELEASE } from '../../contract/lending.js';
import { attachReport } from '../../contract/plugin-contract.js';
import type { Reporter } from '../../contract/plugin-contract.js';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import { seededRandom } from './seeded-random.js';

/** Options of {@link shuffleBuffer}. */
export interface ShuffleBufferOptions {
  /** Records held at once (tf.data's `buffer_size`): memory is bounded by this many records. */
  readonly size: number;
  /** The seed: the same seed and input give the same order. @default 0 */
  readonly seed?: number;
}

/**
 * A bounded-memory shuffle, as `tf.data.Dataset.shuffle(buffer_size, seed)`: fills a buffer of
 * `size` records, then for each new record emits a uniformly chosen buffered one and puts the new
 * one in its place; at the end emits the rest in a seeded random order. A record can come out at
 * most `size` places earlier than it went in (later without bound), so a small buffer only shuffles
 * locally; a buffer at least as large as the input is a full, uniform shuffle.
 */
export function shuffleBuffer<T>(options: ShuffleBufferOptions): TransformStream<T, T> & Reporter {
  const size = options.size;
  if (!Number.isSafeInteger(size) || size < 1 || size > 2 ** 32) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `shuffleBuffer(): size must be a positive integer, got ${String(size)}`,
      {
        stage: 'shuffleBuffer',
        fatal: true,
      },
    );
  }
  const random = seededRandom(options.seed ?? 0);
  const buffer: T[] = [];
  let records = 0;
  const stream = new TransformStream<T, T>({
    transform(record, controller) {
      if (buffer.length < size) {
        buffer.push(record);
        return;
      }
      const index = random.below(size);
      controller.enqueue(buffer[index]);
      records++;
      buffer[index] = record;
    },
    flush(controller) {
      for (let end = buffer.length; end > 0; end--) {
        const index = random.below(end);
        controller.enqueue(buffer[index]);
        records++;
        buffer[index] = buffer[end - 1]!;
      }
      buffer.length = 0;
    },
  });
  // Records pass through as they are (release hooks with them), none is read once passed on.
  return attachReport(markLending(stream, STAGE_PASSES_RELEASE), () => ({ stage: 'shuffleBuffer', records }));
}
