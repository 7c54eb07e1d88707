import { CHUNK_ELEMENTS } from '../chunks.js';
import type { Chunks } from '../chunks.js';

interface Slot<U> {
  readonly iterator: AsyncIterator<readonly U[]>;
  chunk: readonly U[];
  at: number;
  /** The slot's next chunk, asked for as soon as the last one arrived: the open inputs read in parallel. */
  next: Promise<IteratorResult<readonly U[]>>;
  /** Whether `next` has settled (an input that can go on without waiting). */
  settled: boolean;
}

/** Asks `slot`'s input for its next chunk, noting in the slot when it arrives. */
function readAhead<U>(slot: Slot<U>): void {
  slot.settled = false;
  const next = slot.iterator.next();
  slot.next = next;
  // Awaited in its turn; this keeps a failure that waits for it from being "unhandled".
  const settle = (): void => {
    if (slot.next === next) slot.settled = true;
  };
  next.then(settle, settle);
}

/** Whether the input in `slot` can give an element now, or a place is free for the next input. */
function ready<U>(slot: Slot<U> | undefined, endOfInput: boolean): boolean {
  return slot === undefined ? !endOfInput : slot.at < slot.chunk.length || slot.settled;
}

/**
 * TensorFlow's `interleave` (its `InterleaveDatasetOp`, deterministic): `cycleLength` inputs open at
 * once, `blockLength` elements from each in turn; an input that ends leaves its place in the cycle to
 * the next input element when the cycle comes back to it. Each open input reads one chunk ahead.
 * Not `deterministic`: when the input whose turn it is has nothing read yet, the next one in the
 * cycle that has takes its turn (tf.data's `deterministic=False`), and with none ready it waits for
 * the first that is. When an input fails, every element before its failure in the output order goes
 * out first, then its error.
 */
export async function* interleaveChunks<T, U>(
  source: Chunks<T>,
  open: (element: T) => Chunks<U>,
  cycleLength: number,
  blockLength: number,
  deterministic = true,
): Chunks<U> {
  const input = source[Symbol.asyncIterator]();
  let inputChunk: readonly T[] = [];
  let inputAt = 0;
  let endOfInput = false;
  const slots: (Slot<U> | undefined)[] = Array.from({ length: cycleLength }, () => undefined);
  let cycle = 0;
  let block = 0;
  let openCount = 0;
  let out: U[] = [];
  const advance = (): void => {
    block = 0;
    cycle = (cycle + 1) % cycleLength;
  };
  try {
    while (!endOfInput || openCount > 0) {
      const slot = slots[cycle];
      if (slot !== undefined) {
        if (slot.at < slot.chunk.length) {
          out.push(slot.chunk[slot.at++]!);
          if (++block === blockLength) advance();
          if (out.length >= CHUNK_ELEMENTS) {
            yield out;
            out = [];
          }
          continue;
        }
        if (!deterministic && !slot.settled) {
          const other = slots.findIndex((_, at) => ready(slots[(cycle + at) % cycleLength], endOfInput));
          if (other > 0) {
            block = 0;
            cycle = (cycle + other) % cycleLength;
          } else {
            // Nothing is ready: what is gathered goes out before the wait, as a stall is what this avoids.
            if (out.length > 0) {
              yield out;
              out = [];
            }
            const pending = slots.flatMap((open) => (open === undefined ? [] : [open.next]));
            await Promise.race(pending).catch(() => undefined);
          }
          continue;
        }
        const result = await slot.next;
        if (result.done !== true) {
          slot.chunk = result.value;
          slot.at = 0;
          readAhead(slot);
          continue;
        }
        slots[cycle] = undefined;
        openCount--;
        advance();
      } else if (!endOfInput) {
        while (inputAt >= inputChunk.length && !endOfInput) {
          const result = await input.next();
          if (result.done === true) endOfInput = true;
          else [inputChunk, inputAt] = [result.value, 0];
        }
        if (endOfInput) continue;
        const iterator = open(inputChunk[inputAt++]!)[Symbol.asyncIterator]();
        const opened: Slot<U> = {
          iterator,
          chunk: [],
          at: 0,
          next: Promise.resolve({ done: true, value: undefined }),
          settled: false,
        };
        readAhead(opened);
        slots[cycle] = opened;
        openCount++;
      } else advance();
    }
    if (out.length > 0) yield out;
  } catch (error) {
    // An input (or the source of inputs) failed: the elements gathered before it go out first.
    if (out.length > 0) yield out;
    throw error;
  } finally {
    // Ends every open input (closing its file), then the outer source.
    for (const slot of slots) {
      if (slot === undefined) continue;
      await slot.next.catch(() => undefined);
      await slot.iterator.return?.();
    }
    if (!endOfInput) await input.return?.();
  }
}
