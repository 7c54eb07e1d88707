import { CHUNK_ELEMENTS } from '../chunks.js';
import type { Chunks } from '../chunks.js';

interface Slot<U> {
  readonly iterator: AsyncIterator<readonly U[]>;
  chunk: readonly U[];
  at: number;
  /** The slot's next chunk, asked for as soon as the last one arrived: the open inputs read in parallel. */
  next: Promise<IteratorResult<readonly U[]>>;
}

function readAhead<U>(iterator: AsyncIterator<readonly U[]>): Promise<IteratorResult<readonly U[]>> {
  const next = iterator.next();
  // Awaited in its turn; this keeps a failure that waits for it from being "unhandled".
  next.catch(() => undefined);
  return next;
}

/**
 * TensorFlow's `interleave` (its `InterleaveDatasetOp`, deterministic): `cycleLength` inputs open at
 * once, `blockLength` elements from each in turn; an input that ends leaves its place in the cycle to
 * the next input element when the cycle comes back to it. Each open input reads one chunk ahead.
 */
export async function* interleaveChunks<T, U>(
  source: Chunks<T>,
  open: (element: T) => Chunks<U>,
  cycleLength: number,
  blockLength: number,
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
        const result = await slot.next;
        if (result.done !== true) {
          slot.chunk = result.value;
          slot.at = 0;
          slot.next = readAhead(slot.iterator);
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
        slots[cycle] = { iterator, chunk: [], at: 0, next: readAhead(iterator) };
        openCount++;
      } else advance();
    }
    if (out.length > 0) yield out;
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
