import { Worker } from 'node:worker_threads';
import { RequestThread } from '@tfpipe/core/internal';
import { buildTables, crc32cRange, maskCrc, POLYNOMIAL, rangeFunction } from './crc32c.js';
import { CRC32C_WASM } from './crc32c-wasm.js';
import { fillFrameCrcs } from './fill-frame-crcs.js';
import { JOB_DONE, JOB_FAILED, type SharedFrameBuffers } from './shared-buffers.js';
import { wasmFrameFiller } from './wasm-frame-filler.js';

/** The check value every CRC-32C implementation gives for "123456789". */
const CHECK_VALUE = 0xe3069283;

// The thread's source is made from the same functions this thread uses (their `toString()`), so it
// runs the same code from the built package, from the TypeScript sources under vitest and from a
// bundle, where a separate worker file would need a path. It checks itself before it says ready: the
// JavaScript CRC, and the WebAssembly one (crc32c.wat) over a small memory laid out as
// shared-buffers.ts lays them out, where WebAssembly runs.
const threadSource = (): string => `'use strict';
const { parentPort } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const buildTables = ${buildTables.toString()};
const rangeFunction = ${rangeFunction.toString()};
const fillFrameCrcs = ${fillFrameCrcs.toString()};
const wasmFrameFiller = ${wasmFrameFiller.toString()};
const tables = buildTables(${POLYNOMIAL});
const crc = rangeFunction(tables);
const wasmFill = wasmFrameFiller('${CRC32C_WASM}');
const check = new TextEncoder().encode('123456789');
const frameCheck = () => {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  const view = new DataView(memory.buffer);
  view.setUint32(0, 9, true);
  new Uint8Array(memory.buffer).set(check, 12);
  view.setInt32(32, 0, true);
  tables.forEach((table, index) => new Int32Array(memory.buffer, 1024 + 1024 * index, 256).set(table));
  wasmFill(memory, 32, 1, 1024);
  return view.getUint32(21, true) === ${maskCrc(CHECK_VALUE)};
};
parentPort.postMessage({
  ready: crc(new DataView(check.buffer), 0, 9) === ${CHECK_VALUE} && (wasmFill === undefined || frameCheck()),
});
parentPort.on('message', ({ id, memory, tables, buffer, frameTable, frames, count, fd, length, state }) => {
  let error;
  let code;
  try {
    if (count === 0) {
      // Nothing to fill in: a buffer of large records only, framed as they were copied in.
    } else if (memory !== undefined && wasmFill !== undefined) wasmFill(memory, frames, count, tables);
    else if (memory !== undefined)
      fillFrameCrcs(new DataView(memory.buffer), new Int32Array(memory.buffer, frames, count), count, crc);
    else fillFrameCrcs(new DataView(buffer), new Int32Array(frameTable, frames, count), count, crc);
  } catch (thrown) {
    error = String(thrown);
  }
  if (error === undefined && fd !== undefined) {
    try {
      const bytes = new Uint8Array(memory !== undefined ? memory.buffer : buffer, 0, length);
      for (let offset = 0; offset < length; ) offset += writeSync(fd, bytes, offset, length - offset);
    } catch (thrown) {
      error = String(thrown && thrown.message);
      code = thrown && thrown.code;
    }
  }
  // Set before the answer: from here on the thread leaves the buffer alone.
  Atomics.store(new Int32Array(memory !== undefined ? memory.buffer : frameTable, state, 1), 0, error === undefined ? ${JOB_DONE} : ${JOB_FAILED});
  parentPort.postMessage({ id, error, code });
});
`;

/** The thread's source, made when the thread first starts (a run that never starts it skips the work). */
let THREAD_SOURCE: string | undefined;

/** How long the thread stays alive with nothing to do, milliseconds. */
const IDLE_EXIT_MS = 5000;

interface Reply {
  readonly id: number;
  readonly error?: string;
  /** The file system's error code, when the job's write failed. */
  readonly code?: string;
}

/** Where the thread writes a buffer once it is framed: its first `length` bytes, at the file's position. */
export interface ThreadWrite {
  readonly fd: number;
  readonly length: number;
}

/**
 * One thread, shared by every shard in the process, that computes the CRCs of full write buffers
 * while this thread encodes the next records. Started when a file has filled a write buffer of small
 * records (~20-30 ms); until it is ready, and wherever threads cannot start, the caller frames on this
 * thread. Never keeps the process alive.
 */
class CrcThread {
  #thread: RequestThread | undefined;
  #ready = false;
  #broken = false;
  #readyWaiters: ((ready: boolean) => void)[] = [];
  /** Threads started so far (for tests). */
  starts = 0;
  /** Buffers with frames framed on the thread so far (for tests). */
  framed = 0;
  /** Buffers written by the thread so far (for tests). */
  written = 0;

  /** True once the thread has started and checked itself. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Starts the thread if needed; resolves true once it is ready, false if it cannot run. */
  whenReady(): Promise<boolean> {
    this.start();
    if (this.#ready || this.#broken) return Promise.resolve(this.#ready);
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  #settleReady(): void {
    const waiters = this.#readyWaiters;
    this.#readyWaiters = [];
    for (const resolve of waiters) resolve(this.#ready);
  }

  /** Restarts a running idle thread's 5 s until it exits (a file that has just opened may use it); starts none. */
  keepAlive(): void {
    if (this.#thread !== undefined && this.#thread.load === 0) this.#thread.touch();
  }

  /**
   * Starts the thread if it is not running (does not wait for it). An idle thread's 5 s until it
   * exits start again: a file that has just opened is about to use it.
   */
  start(): void {
    this.keepAlive();
    if (this.#thread !== undefined || this.#broken) return;
    try {
      const thread: RequestThread = new RequestThread({
        start: () =>
          new Worker((THREAD_SOURCE ??= threadSource()), {
            eval: true,
            execArgv: [],
            name: 'tfpipe tfrecord crc',
          }),
        idleExitMs: IDLE_EXIT_MS,
        exitMessage: () => 'the CRC thread exited',
        onMessage: (message) => this.#readied(thread, (message as { ready?: boolean }).ready === true),
        onGone: (error) => this.#gone(thread, error),
      });
      this.#thread = thread;
      this.starts++;
    } catch {
      this.#broken = true;
      this.#settleReady();
    }
  }

  /**
   * Fills in the CRCs of the first `count` frames listed in `buffers` on the thread (see
   * `fillFrameCrcs`). The buffers are shared memory, so nothing is moved or copied; the caller must
   * leave them alone until the promise settles. With `write`, the thread then writes the buffer's
   * first `write.length` bytes to `write.fd` itself: jobs run in the order they were given.
   * @throws (rejects) when the thread is not running, or died before it answered; with the file
   * system's error (and its `code`) when the write failed
   */
  async frame(buffers: SharedFrameBuffers, count: number, write?: ThreadWrite): Promise<void> {
    const thread = this.#thread;
    if (thread === undefined || !this.#ready) throw new Error('the CRC thread is not ready');
    const { buffer, frames, memory, tables } = buffers;
    // The thread marks `state` done or failed; the caller marks it given when it starts waiting on it.
    const job = {
      frames: frames.byteOffset,
      count,
      fd: write?.fd,
      length: write?.length,
      state: buffers.state.byteOffset,
    };
    const reply = await thread.request<Reply>(
      memory === undefined
        ? { buffer: buffer.buffer, frameTable: frames.buffer, ...job }
        : { memory, tables, ...job },
    );
    if (count > 0) this.framed++;
    if (write !== undefined) this.written++;
    if (reply.error === undefined) return;
    if (reply.code !== undefined) throw Object.assign(new Error(reply.error), { code: reply.code });
    throw new Error(`the CRC thread failed: ${reply.error}`);
  }

  /** Stops the thread now; jobs it holds reject. The next `start` starts a new one. Internal (tests). */
  async stop(): Promise<void> {
    const thread = this.#thread;
    if (thread === undefined) return;
    await thread.stop(new Error('the CRC thread was stopped'));
  }

  /** The thread's check: ready, or broken when it computed a wrong check value. */
  #readied(thread: RequestThread, ready: boolean): void {
    if (this.#thread !== thread) return;
    if (ready) {
      this.#ready = true;
      this.#settleReady();
    } else {
      this.#broken = true;
      void thread.stop(new Error('the CRC thread computed a wrong check value'));
    }
  }

  /** The thread is gone: after an error for good, after idling or a stop until the next `start`. */
  #gone(thread: RequestThread, error: Error | undefined): void {
    if (this.#thread !== thread) return;
    this.#thread = undefined;
    this.#ready = false;
    if (error !== undefined) this.#broken = true;
    this.#settleReady();
  }
}

/** The process's CRC thread. Internal. */
export const crcThread = new CrcThread();

/** Frames on this thread: the fallback, and what the thread's result is compared with. Internal. */
export function fillFrameCrcsHere(buffer: Uint8Array, frames: Int32Array, count: number): void {
  fillFrameCrcs(
    new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength),
    frames,
    count,
    crc32cRange,
  );
}

/**
 * Fills in a full buffer's CRCs on the CRC thread, or here when the thread is not ready. A thread
 * that dies before it answers leaves the CRCs unknown: that is an error, never a short file.
 */
export async function fillFrameCrcsOnThread(buffers: SharedFrameBuffers, count: number): Promise<void> {
  if (crcThread.ready) await crcThread.frame(buffers, count);
  else fillFrameCrcsHere(buffers.buffer, buffers.frames, count);
}
