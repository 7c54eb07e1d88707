import { crcThread, fillFrameCrcsOnThread } from './crc-thread.js';
import type { ShardOutput } from './shard-output.js';
import { JOB_DONE, JOB_GIVEN, type SharedFrameBuffers } from './shared-buffers.js';
import type { WriteBufferPool } from './write-buffer-pool.js';

/** Counters for tests: buffers taken back by their job state before the CRC thread's answer. Internal. */
export const threadWriteCounts = { reclaimed: 0 };

/** Deferred buffers per file at most: one filling, the others with the CRC thread or the disk. */
const MAX_DEFERRED_BUFFERS = 4;

/** A buffer the CRC thread frames and writes. */
interface ThreadJob {
  readonly buffers: SharedFrameBuffers;
  /** Freed by its state word before the thread's answer came. */
  reclaimed: boolean;
}

/**
 * One file's full deferred buffers (small records whose CRCs are left to fill in) on their way to
 * the file, in order: framed by the CRC thread and written by it, or framed there (or here) and
 * written from this thread. Each buffer goes back to the file's {@link WriteBufferPool} once written.
 * Internal.
 */
export class CrcThreadQueue {
  readonly #output: ShardOutput;
  readonly #pool: WriteBufferPool;
  /** Deferred buffers' writes under way, oldest first (each framed, then written after the one before). */
  readonly #writes: Promise<void>[] = [];
  /** Buffers the CRC thread is writing (see {@link write}), oldest first. */
  readonly #onThread: ThreadJob[] = [];
  /**
   * Settles once the CRC thread may be given the next buffer to write: a write of this thread's has
   * finished, and the buffers before waiting for it have been given. Undefined: it may be now.
   */
  #threadGate: Promise<void> | undefined;

  constructor(output: ShardOutput, pool: WriteBufferPool) {
    this.#output = output;
    this.#pool = pool;
  }

  /**
   * Frames the first `count` frames of a full deferred buffer and writes its first `used` bytes after
   * every write before it (`previous`, the file's last write). Where the file takes its bytes as they
   * are, the CRC thread writes the buffer itself once it has framed it: jobs run there in the order
   * they were given, so each buffer goes to the thread at once (after a write of this thread's, if
   * one is under way), and is free again as soon as its state says so, without waiting for this
   * thread to take the answer (which it does only when it next waits: a pipeline of synchronous
   * stages does not). Otherwise this thread writes it once it is framed.
   */
  write(buffers: SharedFrameBuffers, count: number, used: number, previous: Promise<void>): Promise<void> {
    const fd = this.#output.directFd;
    let write: Promise<void>;
    if (fd === undefined || !crcThread.ready) {
      write = this.#frameThenWriteHere(buffers, count, used, previous);
      this.holdThreadWrites(write);
    } else {
      write = this.#writeOnThread(buffers, count, used, fd);
    }
    const writes = this.#writes;
    writes.push(write);
    const done = (): void => void writes.splice(writes.indexOf(write), 1);
    write.then(done, done);
    return write;
  }

  /**
   * Undefined when the file may take another deferred buffer now (one is free, or it has fewer than
   * its limit); otherwise the oldest write, which frees one. Several buffers in flight smooth out
   * the CRC thread's and the disk's pace; waiting for all of them let the main thread idle.
   */
  bufferWait(): Promise<void> | undefined {
    if (this.#pool.hasFreeShared || this.#pool.sharedCount < MAX_DEFERRED_BUFFERS || this.#reclaim())
      return undefined;
    return this.#writes[0];
  }

  /**
   * The CRC thread gets no buffer to write until `promise` settles: a write of this thread's, or the
   * giving of a buffer that itself waits for one.
   */
  holdThreadWrites(promise: Promise<unknown>): void {
    const gate = promise.then(
      () => undefined,
      () => undefined,
    );
    this.#threadGate = gate;
    void gate.then(() => {
      if (this.#threadGate === gate) this.#threadGate = undefined;
    });
  }

  /** The CRC thread frames the buffer and writes it to `fd` itself, in turn. */
  #writeOnThread(buffers: SharedFrameBuffers, count: number, used: number, fd: number): Promise<void> {
    const output = this.#output;
    const job: ThreadJob = { buffers, reclaimed: false };
    // Marked now, not when given: a job that waits for a write of this thread's still holds the
    // state of the buffer's previous job, which `#reclaim` must not read as this one's.
    Atomics.store(buffers.state, 0, JOB_GIVEN);
    this.#onThread.push(job);
    const gate = this.#threadGate;
    /** Resolves true once the thread has written the buffer, false once this thread has. */
    let written: Promise<boolean>;
    if (gate === undefined) {
      written = crcThread.frame(buffers, count, { fd, length: used }).then(() => true);
    } else {
      const given = gate.then(async () => {
        if (crcThread.ready) return { written: crcThread.frame(buffers, count, { fd, length: used }) };
        // The thread went away meanwhile (idle too long behind a slow write): framed and written here,
        // before the next buffer may be given.
        await fillFrameCrcsOnThread(buffers, count);
        await output.write(buffers.buffer.subarray(0, used));
        return { written: undefined };
      });
      this.holdThreadWrites(given);
      written = given.then(async ({ written: byThread }) => {
        if (byThread === undefined) return false;
        await byThread;
        return true;
      });
    }
    return written.then(
      (byThread) => {
        if (byThread) output.countWritten(used);
        this.#threadJobEnded(job, true);
      },
      (error: unknown) => {
        this.#threadJobEnded(job, false);
        throw error;
      },
    );
  }

  /** Frames the buffer (on the CRC thread if it is ready), then writes it from here after `previous`. */
  async #frameThenWriteHere(
    buffers: SharedFrameBuffers,
    count: number,
    used: number,
    previous: Promise<void>,
  ): Promise<void> {
    const framing = count > 0 ? fillFrameCrcsOnThread(buffers, count) : undefined;
    await framing;
    await previous;
    await this.#output.write(buffers.buffer.subarray(0, used));
    this.#pool.giveBack(buffers);
  }

  /** A job the thread wrote has answered: its buffer is free, unless `#reclaim` already took it. */
  #threadJobEnded(job: ThreadJob, succeeded: boolean): void {
    const index = this.#onThread.indexOf(job);
    if (index !== -1) this.#onThread.splice(index, 1);
    if (succeeded && !job.reclaimed) this.#pool.giveBack(job.buffers);
  }

  /** Frees the oldest buffer the thread has written if its state says it is done; whether it did. */
  #reclaim(): boolean {
    const oldest = this.#onThread[0];
    if (oldest === undefined || Atomics.load(oldest.buffers.state, 0) !== JOB_DONE) return false;
    this.#onThread.shift();
    oldest.reclaimed = true;
    threadWriteCounts.reclaimed++;
    this.#pool.giveBack(oldest.buffers);
    return true;
  }
}
