/** Async iteration over a WHATWG ReadableStream (TypeScript's DOM lib lacks it); cancels on early exit. */
export async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) {
        done = true;
        return;
      }
      yield result.value;
    }
  } finally {
    if (!done) await reader.cancel();
    reader.releaseLock();
  }
}
