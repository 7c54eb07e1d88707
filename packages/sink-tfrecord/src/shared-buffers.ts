import { CRC_TABLES } from './crc32c.js';
import { FRAME_OVERHEAD } from './frame-record.js';

/** A write buffer whose CRCs the CRC thread fills in, and its table of frame offsets; both shared memory. */
export interface SharedFrameBuffers {
  /** The buffer, from byte 0 of its shared memory. */
  readonly buffer: Uint8Array;
  readonly frames: Int32Array;
  /**
   * The state of the buffer's current CRC-thread job, one Int32 in the same shared memory:
   * `JOB_GIVEN` when it is handed over, `JOB_DONE` once the thread has framed and written it and no
   * longer touches the buffer, `JOB_FAILED` when it could not. Read with `Atomics.load`: the writer
   * may reuse a buffer whose job is done before the thread's answer reaches it.
   */
  readonly state: Int32Array;
  /**
   * The WebAssembly memory the buffer, the frame table and the CRC tables (at byte `tables`) lie in,
   * for the thread's WebAssembly CRC (crc32c.wat); absent where WebAssembly cannot make one.
   */
  readonly memory?: WebAssembly.Memory;
  readonly tables: number;
}

/** Idle buffers kept per size at most: enough for two files written at once (four each in flight). */
const MAX_POOLED_PER_SIZE = 8;

/** How long idle buffers are kept after the last one was taken or given back, milliseconds. */
const IDLE_RELEASE_MS = 5000;

const pools = new Map<number, SharedFrameBuffers[]>();
let releaseTimer: ReturnType<typeof setTimeout> | undefined;
let lastUse = 0;

/** Counters for tests: shared buffers allocated and taken from the pool so far. Internal. */
export const sharedBufferCounts = { allocated: 0, reused: 0 };

/**
 * A `size`-byte write buffer in shared memory, with a frame table for as many frames as fit: an idle
 * one given back by an earlier file, or a new one. Internal.
 *
 * Why shared memory: the CRC thread reads and writes the buffer where it is. Moving an ArrayBuffer
 * to a thread and back makes a new ArrayBuffer object on each side every time, and V8 counts each
 * as new off-heap memory; at the rate a tabular file fills 4 MiB buffers that forced a full
 * collection every few hundred milliseconds. Reusing the buffers across files
 * does the same for a writer that opens many shards.
 */
export function takeSharedFrameBuffers(size: number): SharedFrameBuffers {
  return takePooled(pools, size, sharedBufferCounts, makeSharedFrameBuffers);
}

/** A new {@link takeSharedFrameBuffers}. */
function makeSharedFrameBuffers(size: number): SharedFrameBuffers {
  const slots = Math.floor(size / FRAME_OVERHEAD) + 1;
  const framesAt = Math.ceil(size / 4) * 4;
  // The state word follows the frame table.
  const tables = framesAt + 4 * (slots + 1);
  let memory: WebAssembly.Memory | undefined;
  try {
    const pages = Math.ceil((tables + TABLE_BYTES) / PAGE_BYTES);
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  } catch {
    // No WebAssembly, no shared WebAssembly memory, or more than 4 GiB: plain shared memory, and the
    // thread's JavaScript CRC.
    const frameTable = new SharedArrayBuffer(4 * (slots + 1));
    return {
      buffer: new Uint8Array(new SharedArrayBuffer(size)),
      frames: new Int32Array(frameTable, 0, slots),
      state: new Int32Array(frameTable, 4 * slots, 1),
      tables: 0,
    };
  }
  const shared = memory.buffer;
  CRC_TABLES.forEach((table, index) => new Int32Array(shared, tables + 1024 * index, 256).set(table));
  return {
    buffer: new Uint8Array(shared, 0, size),
    frames: new Int32Array(shared, framesAt, slots),
    state: new Int32Array(shared, framesAt + 4 * slots, 1),
    memory,
    tables,
  };
}

/** {@link SharedFrameBuffers.state}: the job is with the CRC thread. */
export const JOB_GIVEN = 1;
/** {@link SharedFrameBuffers.state}: the thread has framed (and written) the buffer and let go of it. */
export const JOB_DONE = 2;
/** {@link SharedFrameBuffers.state}: the thread could not; its answer says why. */
export const JOB_FAILED = 3;

/** A WebAssembly page. */
const PAGE_BYTES = 65536;

/** The sixteen CRC slicing tables. */
const TABLE_BYTES = 16 * 1024;

/**
 * Gives idle buffers back for the next file. The caller must not touch them afterwards: no write
 * and no CRC job may still hold them. Internal.
 */
export function releaseSharedFrameBuffers(buffers: readonly SharedFrameBuffers[]): void {
  keepIdle(pools, buffers, (entry) => entry.buffer.length);
}

/** Puts idle buffers into their size's pool (at most MAX_POOLED_PER_SIZE each) and starts the idle timer. */
function keepIdle<T>(into: Map<number, T[]>, buffers: readonly T[], sizeOf: (entry: T) => number): void {
  if (buffers.length === 0) return;
  lastUse = performance.now();
  for (const entry of buffers) {
    const size = sizeOf(entry);
    let pool = into.get(size);
    if (pool === undefined) {
      pool = [];
      into.set(size, pool);
    }
    if (pool.length < MAX_POOLED_PER_SIZE && !pool.includes(entry)) pool.push(entry);
  }
  releaseTimer ??= setTimeout(releaseIdle, IDLE_RELEASE_MS).unref();
}

const plainPools = new Map<number, Uint8Array[]>();

/** Counters for tests: plain write buffers allocated and taken from the pool so far. Internal. */
export const plainBufferCounts = { allocated: 0, reused: 0 };

/**
 * A `size`-byte plain write buffer (for records framed on this thread): an idle one given back by
 * an earlier file, or a new one. Internal.
 *
 * Why pooled: V8 counts every new ArrayBuffer as off-heap allocation, and two fresh 4 MiB buffers
 * per file were most of what still started full collections when writing 300 kept JPEGs a file at a
 * time (7 in 30 files with them, 1 without).
 */
export function takePlainBuffer(size: number): Uint8Array {
  return takePooled(plainPools, size, plainBufferCounts, (length) => new Uint8Array(length));
}

/** An idle `size` entry of `from`, else a new one from `make`; counted in `counts`. */
function takePooled<T>(
  from: Map<number, T[]>,
  size: number,
  counts: { allocated: number; reused: number },
  make: (size: number) => T,
): T {
  lastUse = performance.now();
  const pooled = from.get(size)?.pop();
  if (pooled !== undefined) {
    counts.reused++;
    return pooled;
  }
  counts.allocated++;
  return make(size);
}

/** Gives idle plain buffers back for the next file; the caller must not touch them afterwards. Internal. */
export function releasePlainBuffers(buffers: readonly Uint8Array[]): void {
  keepIdle(plainPools, buffers, (buffer) => buffer.length);
}

/** Idle buffers per size (for tests). Internal. */
export function pooledSharedFrameBuffers(size: number): number {
  return pools.get(size)?.length ?? 0;
}

/** Drops every idle buffer now. Internal (tests). */
export function dropSharedFrameBuffers(): void {
  pools.clear();
  plainPools.clear();
  if (releaseTimer !== undefined) clearTimeout(releaseTimer);
  releaseTimer = undefined;
}

/** Drops the idle buffers once none has been used for IDLE_RELEASE_MS: one timer per idle spell. */
function releaseIdle(): void {
  releaseTimer = undefined;
  const left = IDLE_RELEASE_MS - (performance.now() - lastUse);
  if (left > 0) {
    releaseTimer = setTimeout(releaseIdle, left).unref();
    return;
  }
  pools.clear();
  plainPools.clear();
}
