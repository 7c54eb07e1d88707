import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { ImageFile } from './read-image-file.js';

/**
 * The `code` of a read refused before any byte was read because the path (links followed) is not a
 * regular file: opening a FIFO waits for a writer, and a character device such as /dev/zero never
 * ends. The error's `kind` says what it is (`'a FIFO'`, `'a character device'`, `'a directory'` …).
 */
export const NOT_A_FILE = 'TFPIPE_NOT_A_FILE';

/** The `code` of a read refused because the file has more than `maxBytes`; the error's `size` is its size in bytes. */
export const FILE_TOO_LARGE = 'TFPIPE_FILE_TOO_LARGE';

/** The most bytes one image file may have whatever the options say (one read fills at most 2 GiB − 1). */
export const MAX_READABLE_BYTES = 2 ** 31 - 1;

/** `readImageFile` on this thread: the fallback, and the reference the tests compare with. Internal. */
export async function readImageFileHere(
  file: string,
  hash: boolean,
  maxBytes = MAX_READABLE_BYTES,
): Promise<ImageFile> {
  // As on the reader threads: stat before open, then open without waiting and check again.
  checkStats(await stat(file), file, maxBytes);
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    checkStats(await handle.stat(), file, maxBytes);
    const data = await handle.readFile();
    if (data.length > maxBytes)
      throw refusal(FILE_TOO_LARGE, `${file} grew past the allowed bytes`, data.length);
    return { data, sha256: hash ? createHash('sha256').update(data).digest('hex') : undefined };
  } finally {
    await handle.close();
  }
}

/** What a refused read's error carries besides `code`. */
export interface ReadRefusal extends NodeJS.ErrnoException {
  /** {@link NOT_A_FILE}: what the path is. */
  readonly kind?: string;
  /** {@link FILE_TOO_LARGE}: the file's size, bytes. */
  readonly size?: number;
}

function checkStats(info: Stats, file: string, maxBytes: number): void {
  if (!info.isFile()) throw refusal(NOT_A_FILE, `${file} is not a regular file`, kindOfStats(info));
  if (info.size > maxBytes)
    throw refusal(FILE_TOO_LARGE, `${file} has more than the allowed bytes`, info.size);
}

function kindOfStats(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return info.isDirectory() ? 'a directory' : 'not a regular file';
}

function refusal(code: string, message: string, fact: string | number): ReadRefusal {
  return Object.assign(
    new Error(message),
    { code },
    typeof fact === 'string' ? { kind: fact } : { size: fact },
  );
}
