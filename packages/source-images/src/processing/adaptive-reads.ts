import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { resourceUsage } from 'node:process';
import type { ImageFile } from './read-image-file.js';
import { READER_LIMITS, wholeFileReader, type WholeFileReader } from './whole-file-reader.js';

/**
 * A read on the main thread taking this long or longer while the process read from a disk (or 4
 * times as long whatever happened) sends the rest of its source's reads to a reader thread, ms.
 */
export const SLOW_READ_MS = 5;

/** How many times `slowMs` a read may take, with no disk read counted, before it counts as slow. */
const DISK_UNSEEN_FACTOR = 4;

/**
 * One image source's reads of files to decode on the main thread, while they are fast. A read
 * from the page cache takes tens of microseconds, less than handing it to a reader thread and
 * taking the answer costs the main thread; a slow or cold disk would block the main thread, so the
 * first slow read (failed or not) sends every later read of this source to a reader thread: a slow
 * disk costs at most one blocked read. A read is slow when it takes `slowMs` or longer and the
 * process's count of blocks read from disks (`resourceUsage().fsRead`) grew meanwhile, or
 * when it takes 4 times `slowMs`: on a loaded machine the main thread is often descheduled for a few
 * milliseconds in the middle of a read from the page cache, which says nothing about the disk (a file
 * system that counts no blocks, such as some network ones, is caught by the second rule). Internal.
 *
 * Files are read into buffers of this source's own free list (given back with `giveBack`), not into
 * a new `ArrayBuffer` each, which V8 would count as off-heap allocation (see `readImageFile`).
 */
export class AdaptiveReads {
  readonly #slowMs: number;
  readonly #reader: WholeFileReader;
  #slow = false;
  #readsHere = 0;

  /** @param slowMs - a read taking this long or longer ends the reads here, ms. @default SLOW_READ_MS (5) */
  constructor(slowMs = SLOW_READ_MS) {
    this.#slowMs = slowMs;
    this.#reader = wholeFileReader(fs, READER_LIMITS);
  }

  /** Whether the next read is made here (no read has been slow yet). */
  get here(): boolean {
    return !this.#slow;
  }

  /** Files read here so far, failed ones included. */
  get readsHere(): number {
    return this.#readsHere;
  }

  /**
   * Reads the whole file here and times the read. `giveBack` puts the buffer in this source's free
   * list: a later file's bytes overwrite it.
   * @throws as `WholeFileReader.readWhole`
   */
  read(file: string, maxBytes: number): ImageFile {
    this.#readsHere++;
    const blocksBefore = resourceUsage().fsRead;
    const started = performance.now();
    let data: Uint8Array;
    try {
      data = this.#reader.readWhole(file, maxBytes);
    } finally {
      const took = performance.now() - started;
      if (isSlowRead(took, this.#slowMs, resourceUsage().fsRead > blocksBefore)) this.#slow = true;
    }
    const reader = this.#reader;
    let given = false;
    const giveBack = (): void => {
      if (given) return;
      given = true;
      reader.keep(data.buffer as ArrayBuffer);
    };
    return { data, sha256: undefined, giveBack };
  }
}

/**
 * Whether a read on the main thread that took `took` ms counts as slow (see {@link AdaptiveReads}).
 * @param diskRead - the process read blocks from a disk meanwhile
 */
export function isSlowRead(took: number, slowMs: number, diskRead: boolean): boolean {
  return took >= slowMs && (diskRead || took >= DISK_UNSEEN_FACTOR * slowMs);
}
