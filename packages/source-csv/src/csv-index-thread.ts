import { Worker } from 'node:worker_threads';
import { availableParallelism, loadavg } from 'node:os';
import type { ThreadWorker } from '@tfpipe/core/internal';
import { indexRecords, recordStride } from './csv-record-index.js';
import type { CsvRemainder } from './csv-record-reader.js';
import { THREAD_MIN_BYTES } from './csv-thread-helper.js';
import { LoadingThread } from './loading-thread.js';

/** Ints of one chunk's index (4 MiB at most: a chunk with more records than fit is indexed on by the calling thread). */
const MAX_INDEX_INTS = 1024 * 1024;

/** The record index of one chunk the thread made, in shared memory. */
export interface IndexedChunk {
  /** Records indexed from the chunk's first byte (see `indexRecords`); 0 when not valid UTF-8. */
  readonly count: number;
  /** False when the chunk is not valid UTF-8 (the text path then finds the bad byte). */
  readonly utf8: boolean;
  readonly index: Int32Array;
}

/** What the byte path must know of its delimiter and fields to index a chunk. */
export interface CsvIndexSettings {
  readonly delimiter: number;
  readonly quote: number;
  readonly fieldCount: number;
  readonly skipEmptyLines: boolean;
  /** The byte path's step: an index holds about one int per byte of it. */
  readonly chunkBytes: number;
}

interface IndexReply {
  readonly id: number;
  readonly count: number;
  readonly utf8: boolean;
}

/** Starts the thread's worker from its source. */
type StartWorker = (source: string) => ThreadWorker;

const startWorker: StartWorker = (source) =>
  new Worker(source, { eval: true, execArgv: [], name: 'tfpipe csv index' });
let starter: StartWorker = startWorker;

/**
 * Test seam: how later index threads are started (`undefined`: the default). The crash tests start
 * the real source in a worker that then exits. Internal.
 */
export function setCsvIndexThreadStarter(start: StartWorker | undefined): void {
  starter = start ?? startWorker;
}

/**
 * `threads: 'auto'`'s choice of the index thread for a file with `left` bytes still to convert (when
 * the converting thread is not used): at least 4 MiB, and the last minute's load average below the
 * number of cores. The thread moves work off the calling thread but adds some (its start, the
 * messages): where every core is busy, that extra work only slows the run.
 */
export function autoWantsIndexThread(
  left: number,
  cores = availableParallelism(),
  load = loadavg()[0]!,
): boolean {
  return left >= testing.minBytes && (testing.ignoreLoad || load < cores);
}

/** What the tests change: the bytes a file must have left, and whether the first chunk waits for the thread to load. */
export interface CsvIndexThreadTesting {
  readonly minBytes: number;
  readonly waitForLoad: boolean;
  /** The thread whatever the machine's load. */
  readonly ignoreLoad: boolean;
}
const DEFAULT_TESTING: CsvIndexThreadTesting = {
  minBytes: THREAD_MIN_BYTES,
  waitForLoad: false,
  ignoreLoad: false,
};
let testing = DEFAULT_TESTING;

/**
 * Test seam (`undefined`: the defaults, 4 MiB, no wait, the load asked): small files use the index
 * thread, it indexes every chunk from the first, and the machine's load does not matter. Internal.
 */
export function setCsvIndexThreadTesting(settings: CsvIndexThreadTesting | undefined): void {
  testing = settings ?? DEFAULT_TESTING;
}

// The thread runs `indexRecords`' own source (its `toString()`), so the built package, the TypeScript
// sources under vitest and a bundle run the same code. It checks UTF-8 (the calling thread's first
// test of a chunk) and indexes the chunk where it lies in shared memory: nothing is copied back.
const threadSource = (): string => `'use strict';
const { parentPort } = require('node:worker_threads');
const { isUtf8 } = require('node:buffer');
const indexRecords = ${indexRecords.toString()};
parentPort.on('message', (request) => {
  const utf8 = isUtf8(request.bytes);
  const count = utf8
    ? indexRecords(request.bytes, 0, request.delimiter, request.quote, request.fieldCount, request.skipEmptyLines, request.index)
    : 0;
  parentPort.postMessage({ id: request.id, count, utf8 });
});
parentPort.postMessage({ ready: true });
`;

/**
 * One worker thread that finds the records and cells of the CSV byte path's chunks (`threads: 'auto'`
 * on fewer than four cores), so that the calling thread only converts cells, encodes and writes.
 * The chunks are read into shared memory, and the thread writes each chunk's record index into shared
 * memory too: nothing is copied or packed. Until the thread has loaded, and where threads cannot
 * start, the calling thread indexes its chunks itself.
 */
export class CsvIndexThread {
  readonly #settings: CsvIndexSettings;
  readonly #indexInts: number;
  /** Index buffers given back, for the next chunks. */
  readonly #free: Int32Array[] = [];
  readonly #thread = new LoadingThread('CSV index', () => starter(threadSource()));

  constructor(settings: CsvIndexSettings) {
    this.#settings = settings;
    const stride = recordStride(settings.fieldCount);
    this.#indexInts = Math.max(stride, Math.min(MAX_INDEX_INTS, settings.chunkBytes));
  }

  /** Whether the thread indexes the rest of this file ({@link autoWantsIndexThread}). Starts the thread. */
  wants(remainder: CsvRemainder): boolean {
    if (!this.#thread.available || !autoWantsIndexThread(remainder.input.size - remainder.byteOffset)) {
      return false;
    }
    this.#thread.start();
    return this.#thread.available;
  }

  /** Under the tests' seam, waits until the thread has loaded (or is gone); else returns at once. */
  async loaded(): Promise<void> {
    if (testing.waitForLoad) await this.#thread.loaded();
  }

  /**
   * Gives the thread a chunk in shared memory to index, or declines (undefined) when it has not
   * loaded yet or is gone. The promise rejects when the thread fails or exits before it answers.
   */
  index(bytes: Uint8Array): Promise<IndexedChunk> | undefined {
    const thread = this.#thread.thread;
    if (thread === undefined) return undefined;
    const index = this.#free.pop() ?? new Int32Array(new SharedArrayBuffer(4 * this.#indexInts));
    const { delimiter, quote, fieldCount, skipEmptyLines } = this.#settings;
    const reply = thread
      .request<IndexReply>({ bytes, index, delimiter, quote, fieldCount, skipEmptyLines })
      .then(({ count, utf8 }) => ({ count, utf8, index }));
    // Awaited when the chunk's turn comes; one seen only after an earlier failure is not unhandled.
    reply.catch(() => undefined);
    return reply;
  }

  /** Gives an index back once its chunk is converted. */
  release(chunk: IndexedChunk): void {
    this.#free.push(chunk.index);
  }

  /** Stops the thread; chunks it held reject. */
  async stop(): Promise<void> {
    await this.#thread.stop();
  }
}
