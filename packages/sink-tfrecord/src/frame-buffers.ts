import { FRAME_TRAILER_BYTES, copyBytes } from '@tfpipe/core';
import { crc32c, crc32cRange, maskCrc } from './crc32c.js';
import { crcThread, frameElsewhere } from './crc-thread.js';
import { RoomFramer } from './room-framer.js';
import { FRAME_OVERHEAD, HEADER_BYTES, frameInPlace, writeFrameLength } from './frame-record.js';
import { crc32cKnowing, fastCrc32c, fastCrc32cRange, KNOWN_SPANS } from './native-crc32c.js';
import type { ShardOutput } from './shard-output.js';
import {
  JOB_DONE,
  JOB_GIVEN,
  releasePlainBuffers,
  releaseSharedFrameBuffers,
  takePlainBuffer,
  takeSharedFrameBuffers,
  type SharedFrameBuffers,
} from './shared-buffers.js';

/** Counters for tests: buffers taken back by their job state before the CRC thread's answer. Internal. */
export const threadWriteCounts = { reclaimed: 0 };

/** A buffer the CRC thread frames and writes. */
interface ThreadJob {
  readonly buffers: SharedFrameBuffers;
  /** Freed by its state word before the thread's answer came. */
  reclaimed: boolean;
}

/** Writes a payload of a known length into `target` at `offset`; returns the end offset. */
export type PayloadWriter = (target: Uint8Array, offset: number) => number;

/** Writes `value`'s payload into `target` at `offset`; returns the end offset (no closure per record). */
export type ValueWriter<T> = (value: T, target: Uint8Array, offset: number) => number;

const LARGEST_CACHED_LENGTH = 1 << 20;

/** Deferred buffers per file at most: one filling, the others with the CRC thread or the disk. */
const MAX_DEFERRED_BUFFERS = 4;

/** Records from this size up are framed at once on this thread, also when the CRC thread is there. */
const DEFERRED_MAX_BYTES = 4096;

/** A run of frames shorter than this is copied into the buffer rather than written where it is. */
const MIN_RUN_BYTES = 16 * 1024;

/**
 * How one file's frames reach its output. Records are encoded and framed straight into a large
 * buffer that is written whole while the next one fills: two alternate, or, once the CRC thread is
 * ready, up to four whose small records' CRCs the thread fills in (and which it writes itself when
 * the file takes its bytes as they are: no compression, no manifest hash). Records with room for their frame
 * are framed where they are and written in runs; large payloads go out from where they are. The
 * caller counts the records (each append that succeeds wrote exactly one frame).
 */
export class FrameBuffers {
  readonly #output: ShardOutput;
  /** Buffer size in bytes. */
  readonly #size: number;
  readonly #useThread: boolean;
  #buffer: Uint8Array;
  #view: DataView;
  #spare: Uint8Array | undefined;
  /** The masked CRC of the last length's 8 header bytes: tabular records repeat lengths. */
  #headerLength = -1;
  #headerCrc = 0;
  #used = 0;
  /**
   * Output not yet written, in order: `#segments`, then the open piece, which is either the buffer's
   * bytes from `#ownStart` to `#used` or a run of frames in someone else's buffer (`#run*`).
   */
  #segments: Uint8Array[] = [];
  #segmentBytes = 0;
  #ownStart = 0;
  #runBuffer: Uint8Array | undefined;
  #runStart = 0;
  #runEnd = 0;
  readonly #roomFramer = new RoomFramer();
  /**
   * Deferred mode: frames already counted in `#used` whose bytes are still in their encoder's chunk,
   * from `#copyStart` to `#copyEnd` of `#copyBuffer`; they go to `#copyTarget` of the buffer.
   */
  #copyBuffer: Uint8Array | undefined;
  #copyStart = 0;
  #copyEnd = 0;
  #copyTarget = 0;
  /**
   * The buffer's CRCs are filled in when it is flushed, on the CRC thread, while this thread fills
   * the other buffer: `#frames` lists the frames' offsets.
   */
  #deferred = false;
  /**
   * Whether the last buffer written had small records (under DEFERRED_MAX_BYTES): only then is the
   * next one deferred. A buffer of large records only gains nothing from the thread (their CRCs are
   * computed here anyway) and loses to copies into shared memory, which are slower than into plain
   * memory (bench/README.md, case b).
   */
  #smallLast = true;
  /** A plain buffer's small records framed here so far (a deferred buffer counts `#frameCount`). */
  #smallHere = 0;
  /** In deferred mode, the buffer and its frame table, in shared memory (see takeSharedFrameBuffers). */
  #shared: SharedFrameBuffers | undefined;
  #frames: Int32Array = new Int32Array(0);
  #frameCount = 0;
  /** Deferred buffers written and free again, with their frame tables. */
  #free: SharedFrameBuffers[] = [];
  #deferredBuffers = 0;
  /** Deferred buffers' writes under way, oldest first (each framed, then written after the one before). */
  #writes: Promise<void>[] = [];
  #failed = false;
  #pending: Promise<void> = Promise.resolve();
  /**
   * Settles once the CRC thread may be given the next buffer to write: a write of this thread's has
   * finished, and the buffers before waiting for it have been given. Undefined: it may be now.
   */
  #threadGate: Promise<void> | undefined;
  /** Buffers the CRC thread is writing (see `#frameAndWrite`), oldest first. */
  readonly #onThread: ThreadJob[] = [];

  constructor(output: ShardOutput, size: number, useThread: boolean) {
    this.#output = output;
    this.#size = size;
    this.#useThread = useThread;
    if (useThread) crcThread.start();
    this.#buffer = this.#newBuffer();
    this.#view = new DataView(this.#buffer.buffer);
  }

  /** Writes out everything appended and waits until it is written. */
  async drain(): Promise<void> {
    await this.#flush();
    await this.#pending;
  }

  /**
   * Gives the shared buffers back for other files, after a {@link drain} that succeeded: nothing
   * holds them then. This object must not be used afterwards. (After a failure they are left to the
   * garbage collector: a CRC job that was given up on may still be writing into one.)
   */
  release(): void {
    const idle = [...this.#free];
    if (this.#shared !== undefined && this.#used === 0) idle.push(this.#shared);
    this.#free = [];
    this.#shared = undefined;
    releaseSharedFrameBuffers(idle);
    // The plain ones too: the spare's write was waited for, and the current one is empty.
    const plain = this.#spare === undefined ? [] : [this.#spare];
    if (!this.#deferred && this.#used === 0) plain.push(this.#buffer);
    this.#spare = undefined;
    releasePlainBuffers(plain);
  }

  /** Waits for the writes under way, ignoring their errors (after a failure, before discarding). */
  async settle(): Promise<void> {
    await this.#pending.catch(() => undefined);
  }

  /**
   * Frames one payload into the buffer when it fits without a flush: the synchronous fast path.
   * @returns false (and does nothing) when the caller must use {@link append}.
   */
  tryAppend(length: number, writePayload: PayloadWriter): boolean {
    const frameBytes = length + FRAME_OVERHEAD;
    if (this.#runBuffer !== undefined) this.#closeRun();
    if (this.#buffer.length - this.#used < frameBytes) return false;
    this.#frame(this.#buffer, this.#used, length, writePayload);
    this.#used += frameBytes;
    return true;
  }

  /** {@link tryAppend} for a value and a writer shared by all records (no closure per record). */
  tryAppendValue<T>(length: number, value: T, write: ValueWriter<T>): boolean {
    const frameBytes = length + FRAME_OVERHEAD;
    if (this.#runBuffer !== undefined) this.#closeRun();
    const used = this.#used;
    if (this.#buffer.length - used < frameBytes) return false;
    const end = write(value, this.#buffer, used + HEADER_BYTES);
    this.#checkEnd(end, used, length);
    this.#frameAt(used, length);
    this.#used = used + frameBytes;
    return true;
  }

  /**
   * Frames a record in the room its encoder left around it (`EncodedExample.frameRoom`): the header
   * goes into the 12 bytes before `offset`, the data CRC into the 4 after the payload, and the frame
   * is written from that buffer, with the frames next to it in one run, instead of being copied.
   * @returns false (and does nothing) when the pending output is full: {@link flush} first.
   */
  tryAppendFramed(buffer: Uint8Array, offset: number, length: number): boolean {
    const frameBytes = length + FRAME_OVERHEAD;
    if (this.#deferred) {
      // The buffer goes to the CRC thread whole, so the record is copied in (a record larger than the
      // buffer takes `appendFramedDirect`). Records that lie one after the other in their chunk, as
      // an encoder writes them, are copied together, frame room and all, when the run ends: each
      // record's length goes into its room first, and the thread fills in both CRCs.
      const used = this.#used;
      if (this.#buffer.length - used < frameBytes) return false;
      if (length >= DEFERRED_MAX_BYTES) {
        this.#copyPending();
        copyBytes(this.#buffer, buffer.subarray(offset, offset + length), used + HEADER_BYTES);
        this.#frameAt(used, length);
        this.#used = used + frameBytes;
        return true;
      }
      const start = offset - HEADER_BYTES;
      if (buffer !== this.#copyBuffer || start !== this.#copyEnd) {
        this.#copyPending();
        this.#copyBuffer = buffer;
        this.#copyStart = start;
        this.#copyTarget = used;
      }
      this.#copyEnd = offset + length + FRAME_TRAILER_BYTES;
      writeFrameLength(buffer, start, length);
      this.#frames[this.#frameCount++] = used;
      this.#used = used + frameBytes;
      return true;
    }
    const pending = this.#segmentBytes + (this.#used - this.#ownStart) + (this.#runEnd - this.#runStart);
    if (pending + frameBytes > this.#buffer.length && pending > 0) return false;
    if (length < DEFERRED_MAX_BYTES) this.#smallHere++;
    const start = offset - HEADER_BYTES;
    const end = offset + length;
    this.#roomFramer.frame(buffer, offset, length);
    if (this.#runBuffer === buffer && this.#runEnd === start) {
      this.#runEnd = end + 4;
    } else {
      if (this.#runBuffer !== undefined) this.#closeRun();
      this.#runBuffer = buffer;
      this.#runStart = start;
      this.#runEnd = end + 4;
    }
    return true;
  }

  /** Writes out what is pending (the buffer swaps; the write itself may still be running). */
  async flush(): Promise<void> {
    await this.#flush();
  }

  /**
   * A record with frame room that does not fit the buffer: framed here, in its room, and written
   * from where it is once everything before it is.
   */
  async appendFramedDirect(buffer: Uint8Array, offset: number, length: number): Promise<void> {
    await this.#flush();
    await this.#pending;
    this.#roomFramer.frame(buffer, offset, length);
    await this.#output.write(buffer.subarray(offset - HEADER_BYTES, offset + length + 4));
  }

  /** Copies the frames still in their encoder's chunk into the buffer (deferred mode). */
  #copyPending(): void {
    const source = this.#copyBuffer;
    if (source === undefined) return;
    copyBytes(this.#buffer, source.subarray(this.#copyStart, this.#copyEnd), this.#copyTarget);
    this.#copyBuffer = undefined;
  }

  /** Ends the open run of frames: a short one is copied into the buffer, a long one becomes a segment. */
  #closeRun(): void {
    const buffer = this.#runBuffer!;
    const start = this.#runStart;
    const length = this.#runEnd - start;
    this.#runBuffer = undefined;
    this.#runStart = 0;
    this.#runEnd = 0;
    if (length < MIN_RUN_BYTES && this.#buffer.length - this.#used >= length) {
      this.#buffer.set(buffer.subarray(start, start + length), this.#used);
      this.#used += length;
      return;
    }
    this.#closeOwn();
    this.#segments.push(buffer.subarray(start, start + length));
    this.#segmentBytes += length;
  }

  /** Ends the buffer's open piece: its bytes become a segment. */
  #closeOwn(): void {
    if (this.#used === this.#ownStart) return;
    this.#segments.push(this.#buffer.subarray(this.#ownStart, this.#used));
    this.#segmentBytes += this.#used - this.#ownStart;
    this.#ownStart = this.#used;
  }

  /**
   * Frames a payload that already exists as bytes and writes it from where it is: the buffer is
   * flushed, then header, payload and trailer go out in one `writev` (no copy into the buffer).
   * The promise settles once `payload` is written, so the caller may reuse it afterwards.
   */
  async appendDirect(payload: Uint8Array): Promise<void> {
    const length = payload.length;
    const header = new Uint8Array(HEADER_BYTES);
    const headerView = new DataView(header.buffer);
    headerView.setUint32(0, length >>> 0, true);
    headerView.setUint32(4, Math.floor(length / 0x1_0000_0000), true);
    headerView.setUint32(8, maskCrc(crc32c(header.subarray(0, 8))), true);
    const trailer = new Uint8Array(4);
    new DataView(trailer.buffer).setUint32(0, maskCrc(fastCrc32c(payload)), true);
    await this.#flush();
    await this.#pending;
    await this.#output.writev([header, payload, trailer]);
  }

  /** Frames one payload of `length` bytes, written by `writePayload` in place. */
  async append(length: number, writePayload: PayloadWriter): Promise<void> {
    const frameBytes = length + FRAME_OVERHEAD;
    if (this.#runBuffer !== undefined) this.#closeRun();
    if (frameBytes > this.#buffer.length) {
      await this.#flush();
      const frame = new Uint8Array(frameBytes);
      this.#frame(frame, 0, length, writePayload);
      await this.#pending;
      await this.#output.write(frame);
    } else {
      if (this.#buffer.length - this.#used < frameBytes) await this.#flush();
      this.#frame(this.#buffer, this.#used, length, writePayload);
      this.#used += frameBytes;
    }
  }

  #frame(target: Uint8Array, offset: number, length: number, writePayload: PayloadWriter): void {
    this.#checkEnd(writePayload(target, offset + HEADER_BYTES), offset, length);
    if (target === this.#buffer) {
      this.#frameAt(offset, length);
      return;
    }
    frameInPlace(target, offset, length, fastCrc32c);
  }

  #checkEnd(end: number, offset: number, length: number): void {
    if (end !== offset + HEADER_BYTES + length) {
      throw new RangeError(`payload writer wrote ${end - offset - HEADER_BYTES} bytes, expected ${length}`);
    }
  }

  /** Writes the header and trailer around the payload at `offset + 12` of the buffer. */
  #frameAt(offset: number, length: number): void {
    const buffer = this.#buffer;
    const view = this.#view;
    view.setUint32(offset, length >>> 0, true);
    view.setUint32(offset + 4, Math.floor(length / 0x1_0000_0000), true);
    // Small records' CRCs go to the CRC thread; a large record's costs little here (one native call),
    // less than moving it through the thread's slower CRC.
    if (length < DEFERRED_MAX_BYTES) {
      if (this.#deferred) {
        this.#frames[this.#frameCount++] = offset;
        KNOWN_SPANS.length = 0; // none in a record this small; never left for the next one
        return;
      }
      this.#smallHere++;
    }
    if (length !== this.#headerLength) {
      this.#headerCrc = maskCrc(crc32cRange(view, offset, offset + 8));
      this.#headerLength = length <= LARGEST_CACHED_LENGTH ? length : -1;
    }
    view.setUint32(offset + 8, this.#headerCrc, true);
    const dataStart = offset + HEADER_BYTES;
    const dataEnd = dataStart + length;
    // Encoding the record may have found values whose CRC a source knew (see ShardedWriter's encoder).
    const crc =
      KNOWN_SPANS.length === 0
        ? fastCrc32cRange(buffer, view, dataStart, dataEnd)
        : crc32cKnowing(buffer, view, dataStart, dataEnd);
    view.setUint32(dataEnd, maskCrc(crc), true);
  }

  async #flush(): Promise<void> {
    this.#copyPending();
    if (this.#runBuffer !== undefined) this.#closeRun();
    this.#closeOwn();
    if (this.#segments.length === 0) return;
    const output = this.#output;
    if (this.#deferred) {
      // Only the buffer's own bytes are pending (records are copied in): it goes to the CRC thread,
      // comes back framed, is written after the buffers before it, and is free again.
      if (this.#failed) await this.#pending;
      const used = this.#used;
      const count = this.#frameCount;
      this.#smallLast = count > 0;
      const write = this.#frameAndWrite(this.#shared!, count, used);
      write.catch(() => {
        this.#failed = true;
      });
      this.#pending = write;
      const writes = this.#writes;
      writes.push(write);
      const done = (): void => void writes.splice(writes.indexOf(write), 1);
      write.then(done, done);
      this.#segments = [];
      this.#segmentBytes = 0;
      // Several buffers in flight smooth out the CRC thread's and the disk's pace; past the limit,
      // the next buffer waits for the oldest write, which frees its buffer. (Waiting for all of them
      // let the main thread idle ~20% of a tabular run while the queue drained.)
      if (this.#free.length === 0 && this.#deferredBuffers >= MAX_DEFERRED_BUFFERS && !this.#reclaim())
        await writes[0];
      this.#takeDeferred();
      return;
    }
    this.#smallLast = this.#smallHere > 0;
    this.#smallHere = 0;
    // The spare buffer's write must finish before it is filled again.
    await this.#pending;
    const segments = this.#segments;
    const write = segments.length === 1 ? output.write(segments[0]!) : output.writev(segments);
    // A rejection surfaces at the next await of #pending; the no-op catch keeps it from going unhandled.
    write.catch(() => undefined);
    this.#pending = write;
    this.#holdThreadWrites(write);
    this.#segments = [];
    this.#segmentBytes = 0;
    if (this.#used > 0) {
      const full = this.#buffer;
      this.#take(false);
      if (!this.#deferred) this.#spare = full;
    }
  }

  /**
   * Frames a full deferred buffer and writes it after every write before it. Where the file takes
   * its bytes as they are, the CRC thread writes the buffer itself once it has framed it: jobs run
   * there in the order they were given, so each buffer goes to the thread at once (after a write of
   * this thread's, if one is under way), and is free again as soon as its state says so, without
   * waiting for this thread to take the answer (which it does only when it next waits: a pipeline
   * of synchronous stages does not). 100k tabular rows: framed on the thread, then written from here
   * through libuv's pool, each buffer waited ~0.3 ms for its job to start and a file's last buffers
   * ~5 ms; now ~2.5 ms in all. Otherwise this thread writes it once it is framed.
   */
  #frameAndWrite(buffers: SharedFrameBuffers, count: number, used: number): Promise<void> {
    const output = this.#output;
    const fd = output.directFd;
    if (fd === undefined || !crcThread.ready) {
      const write = this.#frameThenWrite(buffers, count, used);
      this.#holdThreadWrites(write);
      return write;
    }
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
        await frameElsewhere(buffers, count);
        await output.write(buffers.buffer.subarray(0, used));
        return { written: undefined };
      });
      this.#holdThreadWrites(given);
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

  /** Frames a deferred buffer (on the CRC thread if it is ready), then writes it from here when its turn comes. */
  async #frameThenWrite(buffers: SharedFrameBuffers, count: number, used: number): Promise<void> {
    const previous = this.#pending;
    const framing = count > 0 ? frameElsewhere(buffers, count) : undefined;
    await framing;
    await previous;
    await this.#output.write(buffers.buffer.subarray(0, used));
    this.#free.push(buffers);
  }

  /**
   * The CRC thread gets no buffer to write until `promise` settles: a write of this thread's, or the
   * giving of a buffer that itself waits for one.
   */
  #holdThreadWrites(promise: Promise<unknown>): void {
    const gate = promise.then(
      () => undefined,
      () => undefined,
    );
    this.#threadGate = gate;
    void gate.then(() => {
      if (this.#threadGate === gate) this.#threadGate = undefined;
    });
  }

  /** A job the thread wrote has answered: its buffer is free, unless `#reclaim` already took it. */
  #threadJobEnded(job: ThreadJob, succeeded: boolean): void {
    const index = this.#onThread.indexOf(job);
    if (index !== -1) this.#onThread.splice(index, 1);
    if (succeeded && !job.reclaimed) this.#free.push(job.buffers);
  }

  /** Frees the oldest buffer the thread has written if its state says it is done; whether it did. */
  #reclaim(): boolean {
    const oldest = this.#onThread[0];
    if (oldest === undefined || Atomics.load(oldest.buffers.state, 0) !== JOB_DONE) return false;
    this.#onThread.shift();
    oldest.reclaimed = true;
    threadWriteCounts.reclaimed++;
    this.#free.push(oldest.buffers);
    return true;
  }

  /** Whether the next buffer's small records go to the CRC thread: it is ready, and they are likely. */
  #threadWanted(): boolean {
    return this.#useThread && this.#smallLast && crcThread.ready;
  }

  /** Starts the next buffer after a deferred one: a free one, or a new one of the right kind. */
  #takeDeferred(): void {
    const free = this.#threadWanted() ? this.#free.pop() : undefined;
    if (free !== undefined) {
      this.#buffer = free.buffer;
      this.#frames = free.frames;
      this.#shared = free;
      this.#deferred = true;
    } else {
      this.#buffer = this.#newBuffer();
    }
    this.#frameCount = 0;
    this.#view = new DataView(this.#buffer.buffer);
    this.#used = 0;
    this.#ownStart = 0;
  }

  /** Starts the next buffer after an ordinary one: the spare, or a new one if the kind changes. */
  #take(wasDeferred: boolean): void {
    const spare = this.#spare;
    const deferred = this.#threadWanted();
    if (spare !== undefined && deferred === wasDeferred) {
      this.#buffer = spare;
      this.#deferred = deferred;
    } else {
      this.#buffer = this.#newBuffer();
    }
    this.#spare = undefined;
    this.#frameCount = 0;
    this.#view = new DataView(this.#buffer.buffer);
    this.#used = 0;
    this.#ownStart = 0;
  }

  /**
   * A buffer for the next records. Once the CRC thread is ready, their CRCs are deferred: the full
   * buffer, in shared memory, is framed by the thread where it is, then written.
   */
  #newBuffer(): Uint8Array {
    const size = this.#size;
    this.#deferred = this.#threadWanted();
    if (!this.#deferred) {
      this.#shared = undefined;
      return takePlainBuffer(size);
    }
    // A buffer of this file's that is free again first: a file that goes back and forth between
    // large and small records would otherwise take a new one at each switch.
    let shared = this.#free.pop();
    if (shared === undefined) {
      shared = takeSharedFrameBuffers(size);
      this.#deferredBuffers++;
    }
    this.#shared = shared;
    this.#frames = shared.frames;
    this.#frameCount = 0;
    return shared.buffer;
  }
}
