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

/** How much of the file one read takes while streaming, in bytes. @default 4 MiB */
export const STREAM_CHUNK_BYTES = 4 * 1024 * 1024;

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
      const response = await fetch(source.url, { headers: { range: `bytes=${start}-${end - 1}` } });
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
 * The file as a pull-based stream of {@link STREAM_CHUNK_BYTES} slices: only the slice being read is
 * in memory, so files larger than memory (and past 2 GB) stream. `onRead` gets the bytes read so far.
 */
export function sliceStream(
  source: ByteSource,
  onRead: (bytesRead: number) => void,
  chunkBytes = STREAM_CHUNK_BYTES,
): ReadableStream<Uint8Array> {
  let position = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (position >= source.size) return controller.close();
        const end = Math.min(source.size, position + chunkBytes);
        const bytes = await source.read(position, end);
        position = end;
        onRead(position);
        controller.enqueue(bytes);
      },
    },
    { highWaterMark: 0 },
  );
}
