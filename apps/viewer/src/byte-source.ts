import type { FileSource } from './worker-protocol.js';

/** Random access to the bytes of a file as stored: a `File` through `slice`, a served file through HTTP ranges. */
export interface ByteSource {
  /** The file's name, for error positions. */
  readonly name: string;
  /** Its size as stored, in bytes. */
  readonly size: number;
  /** Bytes `[start, end)`; fewer only at the end of the file. */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** How much of the file one read takes while streaming, in bytes. @default 8 MiB */
export const STREAM_CHUNK_BYTES = 8 * 1024 * 1024;
/**
 * Reads kept in flight while one slice is parsed: a `File.slice` read crosses to the browser
 * process and back, so reading the next slices while this one is verified keeps the file flowing.
 * @default 2
 */
export const STREAM_READ_AHEAD = 2;

/** The {@link ByteSource} of what the page handed over. */
export function byteSource(source: FileSource): ByteSource {
  if (source.kind === 'file') {
    const { file } = source;
    return {
      name: file.name,
      size: file.size,
      read: async (start, end) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
    };
  }
  return {
    name: source.name,
    size: source.size,
    async read(start, end) {
      if (end <= start) return new Uint8Array(0);
      // Past the HTTP cache: it would keep a copy of the file, and it lets one request of a URL at a
      // time through, so a record asked for would wait for the reading pass's slices in flight.
      const response = await fetch(source.url, {
        headers: { range: `bytes=${start}-${end - 1}` },
        cache: 'no-store',
      });
      if (response.status !== 206 && response.status !== 200) {
        throw new Error(
          `${source.name}: the server answered ${response.status} for bytes ${start}-${end - 1}`,
        );
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      // A server that ignores ranges sends the whole file: keep the part asked for.
      return response.status === 200 ? bytes.subarray(start, end) : bytes;
    },
  };
}

/**
 * The file as a pull-based stream of {@link STREAM_CHUNK_BYTES} slices, {@link STREAM_READ_AHEAD}
 * reads ahead of its reader: only those slices are in memory, so files larger than memory (and past
 * 2 GB) stream. `onRead` gets the bytes handed out so far.
 */
export function sliceStream(
  source: ByteSource,
  onRead: (bytesRead: number) => void,
  chunkBytes = STREAM_CHUNK_BYTES,
  readAhead = STREAM_READ_AHEAD,
): ReadableStream<Uint8Array> {
  let requested = 0;
  let handedOut = 0;
  const reads: Promise<Uint8Array>[] = [];
  const requestMore = (): void => {
    while (reads.length < Math.max(1, readAhead) && requested < source.size) {
      const end = Math.min(source.size, requested + chunkBytes);
      const read = source.read(requested, end);
      // Seen by the reader when it gets there; until then an early failure is not unhandled.
      read.catch(() => undefined);
      reads.push(read);
      requested = end;
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        requestMore();
        const next = reads.shift();
        if (next === undefined) return controller.close();
        const bytes = await next;
        handedOut += bytes.length;
        onRead(handedOut);
        controller.enqueue(bytes);
        requestMore();
      },
    },
    { highWaterMark: 0 },
  );
}
