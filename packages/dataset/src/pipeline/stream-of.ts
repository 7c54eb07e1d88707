import { firstPass, type OpenChunks } from './chunks.js';

/** The underlying source of a dataset's `ReadableStream` side: one pass, a chunk per pull. */
export function streamOf<T>(open: OpenChunks<T>): UnderlyingDefaultSource<T> {
  let iterator: AsyncIterator<readonly T[]> | undefined;
  return {
    async pull(controller) {
      iterator ??= open(firstPass())[Symbol.asyncIterator]();
      for (;;) {
        const result = await iterator.next();
        if (result.done === true) return controller.close();
        for (const element of result.value) controller.enqueue(element);
        if (result.value.length > 0) return;
      }
    },
    async cancel() {
      await iterator?.return?.();
    },
  };
}
