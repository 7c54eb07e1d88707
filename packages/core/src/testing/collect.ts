/** Reads a stream to its end and returns every chunk; rejects with the stream's error. */
export async function collect<T>(readable: ReadableStream<T>): Promise<T[]> {
  const chunks: T[] = [];
  const reader = readable.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
}
