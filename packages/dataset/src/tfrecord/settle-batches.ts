import type { Chunks } from '../pipeline/chunks.js';

interface Waiting<T> {
  readonly promise: Promise<T>;
  settled: boolean;
}

/**
 * The batches of `source`, some still being parsed elsewhere (promises): in the order they were
 * started when `deterministic`, else each as soon as it is ready. At most `limit` wait at once: past
 * that, reading pauses until the oldest (or, not deterministic, the first) is ready. A batch that
 * failed throws when its turn comes, after every batch before it; when `source` fails, every batch
 * started before then goes out (or fails) first.
 */
export async function* settleBatches<T>(
  source: AsyncIterable<readonly (T | Promise<T>)[]>,
  limit: number,
  deterministic: boolean,
): Chunks<T> {
  const waiting: Waiting<T>[] = [];
  const ready = function* (): Generator<Waiting<T>> {
    if (deterministic) {
      while (waiting.length > 0 && waiting[0]!.settled) yield waiting.shift()!;
      return;
    }
    for (let index = 0; index < waiting.length;)
      if (waiting[index]!.settled) yield waiting.splice(index, 1)[0]!;
      else index++;
  };
  const next = async (): Promise<T> => {
    if (deterministic) return waiting.shift()!.promise;
    const index = await Promise.race(
      waiting.map((entry, at) =>
        entry.promise.then(
          () => at,
          () => at,
        ),
      ),
    );
    return waiting.splice(index, 1)[0]!.promise;
  };
  let batchFailed = false;
  try {
    for await (const outs of source) {
      for (const out of outs) {
        const entry: Waiting<T> = { promise: Promise.resolve(out), settled: false };
        // Marks a failure as handled until its turn, and the entry as ready either way.
        entry.promise.then(
          () => (entry.settled = true),
          () => (entry.settled = true),
        );
        waiting.push(entry);
      }
      const done: T[] = [];
      try {
        for (const entry of ready()) done.push(await entry.promise);
        while (waiting.length > limit) done.push(await next());
      } catch (error) {
        // The batches ready before the failed one still go out first.
        batchFailed = true;
        if (done.length > 0) yield done;
        throw error;
      }
      if (done.length > 0) yield done;
    }
  } catch (error) {
    if (batchFailed) throw error;
    // The source failed (a truncated record, a damaged file): the batches started before it go out
    // first, in order, and an error among them, being earlier in the data, is the one raised.
    while (waiting.length > 0) yield [await waiting.shift()!.promise];
    throw error;
  }
  while (waiting.length > 0) yield [await next()];
}
