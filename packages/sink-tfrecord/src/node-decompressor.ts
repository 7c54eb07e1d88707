import { constants, createGunzip, createInflate } from 'node:zlib';

/** How many decompressed chunks may wait for the reader before zlib is paused. */
const QUEUED_CHUNKS = 4;
/** Trailer sizes: gzip's CRC-32 and ISIZE, zlib's Adler-32. */
const TRAILER_BYTES = { gzip: 8, deflate: 4 } as const;

/**
 * A gzip or zlib decompressor over `node:zlib` that hands its reader every byte decoded before a
 * failure, and only then the failure. `DecompressionStream` errors its readable at once, which drops
 * the decoded chunks still queued: a damaged trailer (a CRC-32 or Adler-32 mismatch at the very end)
 * lost the last chunk of good records. zlib itself also drops what the failing call decoded, so the
 * last bytes of the input (the trailer) are held back and fed only after a sync flush has handed over
 * everything before them. zlib is paused while its output waits, so memory stays bounded whatever the
 * input inflates to.
 */
export function nodeDecompressor(format: 'gzip' | 'deflate'): ReadableWritablePair<Uint8Array, Uint8Array> {
  const zlib = format === 'gzip' ? createGunzip() : createInflate();
  const queue: Uint8Array[] = [];
  let failure: { readonly error: unknown } | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  zlib.on('data', (chunk: Buffer) => {
    queue.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (queue.length >= QUEUED_CHUNKS) zlib.pause();
    notify();
  });
  zlib.on('error', (error) => {
    failure = { error };
    notify();
  });
  zlib.on('end', () => {
    ended = true;
    notify();
  });

  const readable = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0 && failure === undefined && !ended) {
          await new Promise<void>((resolve) => (wake = resolve));
        }
        const next = queue.shift();
        if (queue.length < QUEUED_CHUNKS) zlib.resume();
        if (next !== undefined) controller.enqueue(next);
        else if (failure !== undefined) controller.error(failure.error);
        else controller.close();
      },
      cancel() {
        zlib.destroy();
      },
    },
    { highWaterMark: 0 },
  );
  let held = new Uint8Array(0);
  const write = (chunk: Uint8Array): Promise<void> | undefined => {
    if (chunk.length === 0 || zlib.write(chunk)) return undefined;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        zlib.off('drain', done);
        zlib.off('error', done);
        resolve();
      };
      zlib.once('drain', done);
      zlib.once('error', done);
    });
  };
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      // After a failure the rest of the input is dropped; the readable reports the failure once the
      // bytes decoded before it have been read.
      if (failure !== undefined || zlib.destroyed) return;
      const trailer = TRAILER_BYTES[format];
      if (chunk.length >= trailer) {
        // The held bytes were not the end after all: they go first, then all but the new tail.
        const previous = held;
        held = chunk.slice(chunk.length - trailer);
        const first = write(previous);
        const second = write(chunk.subarray(0, chunk.length - trailer));
        return first ?? second;
      }
      const joined = new Uint8Array(held.length + chunk.length);
      joined.set(held);
      joined.set(chunk, held.length);
      const split = Math.max(0, joined.length - trailer);
      held = joined.slice(split);
      return write(joined.subarray(0, split));
    },
    async close() {
      if (failure !== undefined || zlib.destroyed) return;
      await new Promise<void>((resolve) => zlib.flush(constants.Z_SYNC_FLUSH, () => resolve()));
      if (failure === undefined && !zlib.destroyed) zlib.end(held);
    },
    abort() {
      zlib.destroy();
    },
  });
  return { readable, writable };
}
