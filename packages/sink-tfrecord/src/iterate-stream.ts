/**
 * Async iteration over a ReadableStream that cancels it when the loop stops early (`break`, `throw`),
 * for runtimes whose ReadableStream is not async-iterable yet (Safari).
 */
export async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
