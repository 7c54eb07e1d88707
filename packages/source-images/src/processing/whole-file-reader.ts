import type { Stats } from 'node:fs';
import { FILE_TOO_LARGE, NOT_A_FILE } from './read-image-file-here.js';

/** What {@link wholeFileReader} uses of `node:fs` (passed in: see the function). */
export interface ReaderFs {
  readonly statSync: (path: string) => Stats;
  readonly openSync: (path: string, flags: number) => number;
  readonly fstatSync: (fd: number) => Stats;
  readonly readSync: (
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: null,
  ) => number;
  readonly closeSync: (fd: number) => void;
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK?: number };
}

/** The codes and buffer limits a {@link wholeFileReader} works with. */
export interface ReaderLimits {
  /** The `code` of a path that is not a regular file. */
  readonly notAFile: string;
  /** The `code` of a file over the byte limit. */
  readonly fileTooLarge: string;
  /** Buffers kept for later files, at most. */
  readonly freeMax: number;
  /** Bytes of buffers kept for later files, at most. */
  readonly freeBytes: number;
}

/** Reads whole files into buffers it keeps for later files. */
export interface WholeFileReader {
  /**
   * The whole file, as `fs.readFileSync` reads it: up to the size fstat gives, or to the end where
   * that is 0 (files of /proc and the like), never more than `maxBytes`, in a buffer of the free
   * list (the smallest large enough) or a new one of the size rounded up to 64 KiB.
   * @throws the file system's error (with `code`); an error with `code` {@link ReaderLimits.notAFile}
   * and `kind` for a FIFO, a device, a directory (never opened), or {@link ReaderLimits.fileTooLarge}
   * and `size` (bytes) for a file over `maxBytes`
   */
  readWhole(path: string, maxBytes: number): Uint8Array;
  /** Keeps `buffer` for a later file (unless the free list is full; an empty one never). */
  keep(buffer: ArrayBuffer): void;
}

/**
 * A file reader with its own free list of buffers. The one implementation of the image readers'
 * file reading: the main thread calls it, and each reader thread runs it from its source text
 * (`wholeFileReader.toString()`), which is why it refers to nothing outside itself: `fs` and the
 * limits are passed in, and it is written in plain JavaScript once its types are stripped.
 *
 * Stat before open: opening a FIFO waits for a writer. `O_NONBLOCK`: one swapped in between is not
 * waited on either (the fstat refuses it).
 */
export function wholeFileReader(fs: ReaderFs, limits: ReaderLimits): WholeFileReader {
  const STEP = 65_536;
  const free: ArrayBuffer[] = [];
  let freeBytes = 0;
  const keep = (buffer: ArrayBuffer): void => {
    if (
      buffer.byteLength === 0 ||
      free.length >= limits.freeMax ||
      freeBytes + buffer.byteLength > limits.freeBytes
    )
      return;
    free.push(buffer);
    freeBytes += buffer.byteLength;
  };
  const take = (size: number): ArrayBuffer => {
    let best = -1;
    for (let index = 0; index < free.length; index++) {
      const length = free[index]!.byteLength;
      if (length >= size && (best === -1 || length < free[best]!.byteLength)) best = index;
    }
    if (best === -1) return new ArrayBuffer(Math.max(STEP, Math.ceil(size / STEP) * STEP));
    const buffer = free[best]!;
    free[best] = free[free.length - 1]!;
    free.pop();
    freeBytes -= buffer.byteLength;
    return buffer;
  };
  const kindOfStats = (info: Stats): string => {
    if (info.isFIFO()) return 'a FIFO';
    if (info.isCharacterDevice()) return 'a character device';
    if (info.isBlockDevice()) return 'a block device';
    if (info.isSocket()) return 'a socket';
    return info.isDirectory() ? 'a directory' : 'not a regular file';
  };
  const refuse = (code: string, message: string, facts: object): Error =>
    Object.assign(new Error(message), { code }, facts);
  const tooLarge = (path: string, size: number): Error =>
    refuse(limits.fileTooLarge, path + ' has more than the allowed bytes', { size });
  const checkStats = (info: Stats, path: string, maxBytes: number): Stats => {
    if (!info.isFile())
      throw refuse(limits.notAFile, path + ' is not a regular file', { kind: kindOfStats(info) });
    if (info.size > maxBytes) throw tooLarge(path, info.size);
    return info;
  };
  const readWhole = (path: string, maxBytes: number): Uint8Array => {
    checkStats(fs.statSync(path), path, maxBytes);
    const fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    try {
      const size = checkStats(fs.fstatSync(fd), path, maxBytes).size;
      let buffer = take(size);
      let length = 0;
      for (;;) {
        if (size > 0 && length === size) break;
        if (length === buffer.byteLength) {
          // A file that grows past what stat said (or /proc's size 0): never more than maxBytes.
          if (length > maxBytes) throw tooLarge(path, length);
          const bigger = take(Math.min(2 * length, maxBytes + 1));
          new Uint8Array(bigger).set(new Uint8Array(buffer));
          keep(buffer);
          buffer = bigger;
        }
        const read = fs.readSync(fd, new Uint8Array(buffer, length), 0, buffer.byteLength - length, null);
        if (read === 0) break;
        length += read;
      }
      if (length > maxBytes) throw tooLarge(path, length);
      return new Uint8Array(buffer, 0, length);
    } finally {
      fs.closeSync(fd);
    }
  };
  return { readWhole, keep };
}

/** The image readers' codes of refused reads, and the buffers each keeps for later files, at most. */
export const READER_LIMITS: ReaderLimits = {
  notAFile: NOT_A_FILE,
  fileTooLarge: FILE_TOO_LARGE,
  freeMax: 16,
  freeBytes: 32 * 1024 * 1024,
};
