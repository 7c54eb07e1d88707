import type { FileHandle } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { openRegularFile } from '@tfpipe/node-utils';

/**
 * Bytes read from a file per read call: in the bench's CSV, larger reads parsed slower, for a cause
 * not pinned down (not the buffers' allocation; bench/README.md, case d).
 */
export const READ_CHUNK_BYTES = 64 * 1024;
/** Chunks read ahead of the parser at most. */
export const READ_AHEAD_CHUNKS = 4;

/**
 * Reads a file chunk by chunk through one FileHandle; `close` is idempotent. Up to
 * {@link READ_AHEAD_CHUNKS} chunks are read ahead while the current one is parsed, so disk and CPU
 * overlap, and a read that waits for a busy thread pool (a sink writing, a CRC thread) does not stall
 * the parser.
 */
export class ChunkedFileReader {
  #handle: FileHandle | undefined;
  #position = 0;
  /** Reads in flight, in file order. */
  #ahead: Promise<Uint8Array | undefined>[] = [];
  readonly #file: string;
  readonly #stage: string;
  /** The size when opened: a file that then shrinks or grows is `INPUT_CHANGED`, never a silent cut. */
  readonly #size: number;

  readonly #chunkBytes: number;
  /** Buffers given back by {@link recycle}, read into again before new ones are made. */
  #spare: Uint8Array[] = [];

  private constructor(handle: FileHandle, file: string, stage: string, size: number, chunkBytes: number) {
    this.#chunkBytes = chunkBytes;
    this.#handle = handle;
    this.#file = file;
    this.#stage = stage;
    this.#size = size;
  }

  /** Opens `file`. @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE`, `IO` */
  /** @param chunkBytes - bytes per read @default READ_CHUNK_BYTES */
  static async open(file: string, stage: string, chunkBytes = READ_CHUNK_BYTES): Promise<ChunkedFileReader> {
    // A FIFO or device is refused before any open (which could block), a path swapped since: after.
    const { handle, size } = await openRegularFile(file, stage);
    return new ChunkedFileReader(handle, file, stage, size, chunkBytes);
  }

  /** The file's size when it was opened: what reads must find. */
  get size(): number {
    return this.#size;
  }

  /** The next chunk, or undefined at the end of the file (the handle is then closed). */
  async read(): Promise<Uint8Array | undefined> {
    const chunk = await (this.#ahead.shift() ?? this.#readChunk());
    if (chunk === undefined) {
      await this.close();
      return undefined;
    }
    // Reads up to the end of the file, and the one past it that proves it did not grow.
    while (this.#ahead.length < READ_AHEAD_CHUNKS && this.#position <= this.#size) {
      const ahead = this.#readChunk();
      // A rejected read-ahead is reported when its turn comes, not as an unhandled rejection.
      ahead.catch(() => undefined);
      this.#ahead.push(ahead);
    }
    return chunk;
  }

  async #readChunk(): Promise<Uint8Array | undefined> {
    const handle = this.#handle;
    if (handle === undefined) return undefined;
    const buffer = this.#spare.pop() ?? new Uint8Array(this.#chunkBytes);
    const position = this.#position;
    this.#position += this.#chunkBytes;
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(buffer, 0, buffer.length, position));
    } catch (error) {
      throw new TfpipeError('IO', 'cannot read input', {
        stage: this.#stage,
        position: { file: this.#file, byteOffset: position },
        fatal: true,
        cause: error,
      });
    }
    const end = position + bytesRead;
    // Regular files read whole chunks except at the end, so a short read before `#size` means it shrank.
    const shrank = bytesRead < buffer.length && end < this.#size;
    if (shrank || (bytesRead > 0 && end > this.#size)) {
      throw new TfpipeError(
        'INPUT_CHANGED',
        `input changed while it was read (${this.#size} bytes when opened, ${end} now)`,
        {
          stage: this.#stage,
          position: { file: this.#file, byteOffset: Math.min(end, this.#size) },
          fatal: true,
        },
      );
    }
    if (bytesRead === 0) return undefined;
    return bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  }

  /**
   * Gives back a chunk {@link read} returned, which the caller no longer reads nor hands on: a later
   * read fills it again. Fresh buffers cost page faults and zeroing on every chunk.
   */
  recycle(chunk: Uint8Array): void {
    if (chunk.byteOffset !== 0 || chunk.buffer.byteLength !== this.#chunkBytes) return;
    if (this.#spare.length < READ_AHEAD_CHUNKS) this.#spare.push(new Uint8Array(chunk.buffer));
  }

  /** Closes the handle (after any read in flight). */
  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    const ahead = this.#ahead;
    this.#ahead = [];
    for (const read of ahead) await read.catch(() => undefined);
    await handle?.close();
  }
}
