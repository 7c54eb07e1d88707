import { FRAME_TRAILER_BYTES, copyBytes } from '@tfpipe/core/internal';
import { crc32c, crc32cRange, maskCrc } from './crc32c.js';
import { crcThread } from './crc-thread.js';
import { CrcThreadQueue } from './crc-thread-queue.js';
import { FrameRun } from './frame-run.js';
import { RoomFramer } from './room-framer.js';
import { FRAME_OVERHEAD, HEADER_BYTES, frameInPlace, writeFrameLength } from './frame-record.js';
import { crc32cKnowing, fastCrc32c, fastCrc32cRange } from './native-crc32c.js';
import type { ShardOutput } from './shard-output.js';
import type { SharedFrameBuffers } from './shared-buffers.js';
import { WriteBufferPool } from './write-buffer-pool.js';

export { threadWriteCounts } from './crc-thread-queue.js';

/** Writes a payload of a known length into `target` at `offset`; returns the end offset. */
export type PayloadWriter = (target: Uint8Array, offset: number) => number;

/** Writes `value`'s payload into `target` at `offset`; returns the end offset (no closure per record). */
export type ValueWriter<T> = (value: T, target: Uint8Array, offset: number) => number;

const LARGEST_CACHED_LENGTH = 1 << 20;

/** Records from this size up are framed at once on this thread, also when the CRC thread is there. */
const DEFERRED_MAX_BYTES = 4096;

/** A run of frames shorter than this is copied into the buffer rather than written where it is. */
const MIN_RUN_BYTES = 16 * 1024;

/**
 * How one file's frames reach its output. Records are encoded and framed straight into a large
 * buffer that is written whole while the next one fills: two alternate (see {@link WriteBufferPool}),
 * or, once the CRC thread is ready, up to four whose small records' CRCs the thread fills in (and
 * which it writes itself when the file takes its bytes as they are: no compression, no manifest
 * hash; see {@link CrcThreadQueue}). Records with room for their frame are framed where they are and
 * written in runs ({@link FrameRun}); large payloads go out from where they are. The caller counts
 * the records (each append that succeeds wrote exactly one frame).
 */
export class FrameBuffers {
  readonly #output: ShardOutput;
  readonly #useThread: boolean;
  readonly #pool: WriteBufferPool;
  readonly #threadQueue: CrcThreadQueue;
  #buffer: Uint8Array;
  #view: DataView;
  /** The masked CRC of the last length's 8 header bytes: tabular records repeat lengths. */
  #headerLength = -1;
  #headerCrc = 0;
  #used = 0;
  /**
   * Output not yet written, in order: `#segments`, then the open piece, which is either the buffer's
   * bytes from `#ownStart` to `#used` or a run of frames in someone else's buffer (`#run`).
   */
  #segments: Uint8Array[] = [];
  #segmentBytes = 0;
  #ownStart = 0;
  readonly #run = new FrameRun();
  readonly #roomFramer = new RoomFramer();
  /**
   * Deferred mode: frames already counted in `#used` whose bytes are still in their encoder's chunk;
   * they are copied to the run's `target` in the buffer.
   */
  readonly #pendingCopy = new FrameRun();
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
  #failed = false;
  /** The file's last write (each waits for the one before). */
  #pending: Promise<void> = Promise.resolve();

  /**
   * @param size - bytes per write buffer
   * @param useThread - leave small records' CRCs to the CRC thread once it is ready
   */
  constructor(output: ShardOutput, size: number, useThread: boolean) {
    this.#output = output;
    this.#useThread = useThread;
    this.#pool = new WriteBufferPool(size);
    this.#threadQueue = new CrcThreadQueue(output, this.#pool);
    // A running thread stays up for this file; a new one starts only once the file needs it (#flush).
    if (useThread) crcThread.keepAlive();
    this.#buffer = this.#newBuffer();
    this.#view = new DataView(this.#buffer.buffer);
  }

  /** Writes out everything appended and waits until it is written. */
  async drain(): Promise<void> {
    await this.#flush(true);
    await this.#pending;
  }

  /**
   * Gives the shared buffers back for other files, after a {@link drain} that succeeded: nothing
   * holds them then. This object must not be used afterwards. (After a failure they are left to the
   * garbage collector: a CRC job that was given up on may still be writing into one.)
   */
  release(): void {
    const empty = this.#used === 0;
    this.#pool.release(empty ? this.#shared : undefined, !this.#deferred && empty ? this.#buffer : undefined);
    this.#shared = undefined;
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
    if (this.#run.buffer !== undefined) this.#closeRun();
    if (this.#buffer.length - this.#used < frameBytes) return false;
    this.#frame(this.#buffer, this.#used, length, writePayload);
    this.#used += frameBytes;
    return true;
  }

  /**
   * {@link tryAppend} for a value and a writer shared by all records (no closure per record).
   * @param crcSpans - where `write` notes values with a known CRC (see `crc32cKnowing`); emptied
   */
  tryAppendValue<T>(length: number, value: T, write: ValueWriter<T>, crcSpans?: number[]): boolean {
    const frameBytes = length + FRAME_OVERHEAD;
    if (this.#run.buffer !== undefined) this.#closeRun();
    const used = this.#used;
    if (this.#buffer.length - used < frameBytes) return false;
    const end = write(value, this.#buffer, used + HEADER_BYTES);
    this.#checkEnd(end, used, length);
    this.#frameAt(used, length, crcSpans);
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
      const end = offset + length + FRAME_TRAILER_BYTES;
      if (!this.#pendingCopy.extend(buffer, start, end)) {
        this.#copyPending();
        this.#pendingCopy.begin(buffer, start, end, used);
      }
      writeFrameLength(buffer, start, length);
      this.#frames[this.#frameCount++] = used;
      this.#used = used + frameBytes;
      return true;
    }
    const run = this.#run;
    const pending = this.#segmentBytes + (this.#used - this.#ownStart) + (run.end - run.start);
    if (pending + frameBytes > this.#buffer.length && pending > 0) return false;
    if (length < DEFERRED_MAX_BYTES) this.#smallHere++;
    const start = offset - HEADER_BYTES;
    const end = offset + length + FRAME_TRAILER_BYTES;
    this.#roomFramer.frame(buffer, offset, length);
    if (!run.extend(buffer, start, end)) {
      if (run.buffer !== undefined) this.#closeRun();
      run.begin(buffer, start, end);
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
    const copy = this.#pendingCopy;
    if (copy.buffer === undefined) return;
    const target = copy.target;
    copyBytes(this.#buffer, copy.take(), target);
  }

  /** Ends the open run of frames: a short one is copied into the buffer, a long one becomes a segment. */
  #closeRun(): void {
    const frames = this.#run.take();
    const length = frames.length;
    if (length < MIN_RUN_BYTES && this.#buffer.length - this.#used >= length) {
      this.#buffer.set(frames, this.#used);
      this.#used += length;
      return;
    }
    this.#closeOwn();
    this.#segments.push(frames);
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
    if (this.#run.buffer !== undefined) this.#closeRun();
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

  /**
   * Writes the header and trailer around the payload at `offset + 12` of the buffer.
   * @param crcSpans - the payload's values with a known CRC, if its encoder noted any; emptied
   */
  #frameAt(offset: number, length: number, crcSpans?: number[]): void {
    const buffer = this.#buffer;
    const view = this.#view;
    view.setUint32(offset, length >>> 0, true);
    view.setUint32(offset + 4, Math.floor(length / 0x1_0000_0000), true);
    // Small records' CRCs go to the CRC thread; a large record's costs little here (one native call),
    // less than moving it through the thread's slower CRC.
    if (length < DEFERRED_MAX_BYTES) {
      if (this.#deferred) {
        this.#frames[this.#frameCount++] = offset;
        if (crcSpans !== undefined) crcSpans.length = 0; // none in a record this small; never left for the next one
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
      crcSpans === undefined || crcSpans.length === 0
        ? fastCrc32cRange(buffer, view, dataStart, dataEnd)
        : crc32cKnowing(buffer, view, dataStart, dataEnd, crcSpans);
    view.setUint32(dataEnd, maskCrc(crc), true);
  }

  /** @param last - the file's final flush (from {@link drain}) */
  async #flush(last = false): Promise<void> {
    this.#copyPending();
    if (this.#run.buffer !== undefined) this.#closeRun();
    this.#closeOwn();
    if (this.#segments.length === 0) return;
    const output = this.#output;
    if (this.#deferred) {
      // Only the buffer's own bytes are pending (records are copied in): it goes to the CRC thread,
      // comes back framed, is written after the buffers before it, and is free again.
      if (this.#failed) await this.#pending;
      const count = this.#frameCount;
      this.#smallLast = count > 0;
      const write = this.#threadQueue.write(this.#shared!, count, this.#used, this.#pending);
      write.catch(() => {
        this.#failed = true;
      });
      this.#pending = write;
      this.#segments = [];
      this.#segmentBytes = 0;
      // Past the file's limit of deferred buffers, the next one waits for the oldest write.
      const wait = this.#threadQueue.bufferWait();
      if (wait !== undefined) await wait;
      this.#takeDeferred();
      return;
    }
    this.#smallLast = this.#smallHere > 0;
    this.#smallHere = 0;
    // The CRC thread starts when a full buffer of small records goes out: only then has the file a
    // next buffer for it. A file of one buffer (a small input) or of large records only (images)
    // never uses it, and starting a thread costs more CPU than framing a buffer here.
    if (!last && this.#smallLast && this.#useThread) crcThread.start();
    // The spare buffer's write must finish before it is filled again.
    await this.#pending;
    const segments = this.#segments;
    const write = segments.length === 1 ? output.write(segments[0]!) : output.writev(segments);
    // A rejection surfaces at the next await of #pending; the no-op catch keeps it from going unhandled.
    write.catch(() => undefined);
    this.#pending = write;
    this.#threadQueue.holdThreadWrites(write);
    this.#segments = [];
    this.#segmentBytes = 0;
    if (this.#used > 0) {
      const full = this.#buffer;
      this.#takePlainNext();
      if (!this.#deferred) this.#pool.keepSpare(full);
    }
  }

  /** Whether the next buffer's small records go to the CRC thread: it is ready, and they are likely. */
  #threadWanted(): boolean {
    return this.#useThread && this.#smallLast && crcThread.ready;
  }

  /** Starts the next buffer after a deferred one: a free one, or a new one of the right kind. */
  #takeDeferred(): void {
    const free = this.#threadWanted() ? this.#pool.takeFreeShared() : undefined;
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

  /** Starts the next buffer after a plain one: the spare, or a new one if the kind changes. */
  #takePlainNext(): void {
    const spare = this.#pool.takeSpare();
    const deferred = this.#threadWanted();
    if (spare !== undefined && !deferred) {
      this.#buffer = spare;
      this.#deferred = false;
    } else {
      this.#buffer = this.#newBuffer();
    }
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
    this.#deferred = this.#threadWanted();
    if (!this.#deferred) {
      this.#shared = undefined;
      return this.#pool.takePlain();
    }
    const shared = this.#pool.takeShared();
    this.#shared = shared;
    this.#frames = shared.frames;
    this.#frameCount = 0;
    return shared.buffer;
  }
}
