import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { checkReplacedName, expandGlob, isGlob, TfpipeError } from '@tfpipe/core';

/**
 * Bytes read from a file per read call: in the bench's CSV, larger reads parsed slower, for a cause
 * not pinned down (not the buffers' allocation; bench/README.md, case d).
 */
export const READ_CHUNK_BYTES = 64 * 1024;
/** Chunks read ahead of the parser at most. */
export const READ_AHEAD_CHUNKS = 4;

/**
 * Expands `paths` (files or globs: `*`, `?`, `**`, `[abc]`, `{a,b}`, core's one matcher) into files,
 * pattern by pattern in the order given, each glob's matches sorted.
 * @throws TfpipeError `INPUT_NOT_FOUND` when a path does not exist or a pattern matches nothing,
 * `INVALID_OPTION` for a bad glob, `IO` when a matching file's name is not UTF-8
 */
export async function expandPaths(paths: readonly string[], stage: string): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of paths) {
    if (!isGlob(pattern)) {
      await checkReplacedName({ stat }, pattern, stage);
      await assertFile(pattern, stage);
      files.push(pattern);
      continue;
    }
    const matches = await expandGlob(pattern.split(path.sep).join('/'), {
      fileSystem: { readdir, stat },
      stage,
    });
    if (matches.length === 0) {
      throw new TfpipeError('INPUT_NOT_FOUND', `no file matches ${JSON.stringify(pattern)}`, {
        stage,
        fatal: true,
      });
    }
    // A loop, not `push(...matches)`: a glob may match more files than a call takes arguments.
    for (const match of matches) files.push(match);
  }
  return files;
}

async function assertFile(file: string, stage: string): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) {
      throw new TfpipeError('INPUT_NOT_FILE', 'not a regular file', {
        stage,
        position: { file },
        fatal: true,
      });
    }
  } catch (error) {
    if (TfpipeError.is(error)) throw error;
    throw new TfpipeError('INPUT_NOT_FOUND', 'cannot open input', {
      stage,
      position: { file },
      fatal: true,
      cause: error,
    });
  }
}

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

  private constructor(handle: FileHandle, file: string, stage: string, size: number, chunkBytes: number) {
    this.#chunkBytes = chunkBytes;
    this.#handle = handle;
    this.#file = file;
    this.#stage = stage;
    this.#size = size;
  }

  /** Opens `file`. @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE` */
  /** @param chunkBytes - bytes per read @default READ_CHUNK_BYTES */
  static async open(file: string, stage: string, chunkBytes = READ_CHUNK_BYTES): Promise<ChunkedFileReader> {
    let handle: FileHandle;
    try {
      // O_NONBLOCK: a path swapped for a FIFO since it was listed must not block the open forever.
      handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      throw new TfpipeError('INPUT_NOT_FOUND', 'cannot open input', {
        stage,
        position: { file },
        fatal: true,
        cause: error,
      });
    }
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      throw new TfpipeError('INPUT_NOT_FILE', 'not a regular file', {
        stage,
        position: { file },
        fatal: true,
      });
    }
    return new ChunkedFileReader(handle, file, stage, info.size, chunkBytes);
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
    const buffer = new Uint8Array(this.#chunkBytes);
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
