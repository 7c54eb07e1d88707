import { CRC_TABLES } from './crc32c.js';
import { CRC32C_WASM_UNSHARED } from './crc32c-wasm.js';
import { FRAME_OVERHEAD } from './frame-record.js';

const PAGE_BYTES = 65536;
/** The sixteen slicing tables, at the start of the memory. */
const TABLES_BYTES = 16 * 1024;
/** The most pages crc32c.wat's memory import allows. */
const MAX_PAGES = 65536;

/** What one {@link FrameWalker.walk} found: the whole frames at the start of the bytes that verify. */
export interface FrameWalk {
  /** The bytes walked: the head, then the chunk. Valid until the next walk. */
  readonly bytes: Uint8Array;
  /** How many frames verified, from the start of `bytes` on. */
  readonly count: number;
  /**
   * Frame `i` starts at byte `frames[2 * i]` of `bytes` and holds `frames[2 * i + 1]` payload
   * bytes. Valid until the next walk.
   */
  readonly frames: Int32Array;
  /** Where the walk stopped, in bytes from the start of `bytes`: the first frame not verified. */
  readonly stop: number;
  /**
   * True when the frame at `stop` fails a check (a CRC, or a length over the maximum): a reader must
   * look at it. False when it needs bytes past the end of `bytes`.
   */
  readonly failed: boolean;
}

/** Verifies many frames with one call into WebAssembly; see {@link wasmFrameWalker}. */
export interface FrameWalker {
  /**
   * Verifies the frames of `head` followed by `chunk` (both copied in), as a reader does: the
   * length CRC, the length at most `maxRecordBytes`, the data CRC.
   * @param maxRecordBytes - the largest payload accepted, in bytes, below 2^31 - 16.
   */
  walk(head: Uint8Array, chunk: Uint8Array, maxRecordBytes: number): FrameWalk;
}

/**
 * A {@link FrameWalker} over crc32c.wat's `walk`: every frame of a chunk verified in one call, with
 * no call, object or view per record (a tiny record's cost in a browser, where each call into
 * WebAssembly and each typed-array view costs more than its CRC). Its memory grows to hold the
 * largest `head` + `chunk` walked.
 *
 * @returns the walker, or `undefined` where WebAssembly is unavailable (a CSP without
 * `'wasm-unsafe-eval'`, or no WebAssembly at all).
 */
export function wasmFrameWalker(): FrameWalker | undefined {
  let memory: WebAssembly.Memory;
  let walk: (at: number, end: number, max: number, tables: number, out: number) => number;
  try {
    memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_PAGES });
    const module = new WebAssembly.Module(
      Uint8Array.from(atob(CRC32C_WASM_UNSHARED), (char) => char.charCodeAt(0)),
    );
    ({ walk } = new WebAssembly.Instance(module, { env: { memory } }).exports as { walk: typeof walk });
  } catch {
    return undefined;
  }
  CRC_TABLES.forEach((table, index) => new Int32Array(memory.buffer, 1024 * index, 256).set(table));
  let capacity = 0;
  let dataStart = 0;
  let heap = new Uint8Array(0);
  let out = new Int32Array(0);
  /** Room for `bytes` of frames and the table of their most frames (one per FRAME_OVERHEAD bytes). */
  const reserve = (bytes: number): void => {
    capacity = Math.max(bytes, capacity * 2);
    const outBytes = 8 + 8 * Math.ceil(capacity / FRAME_OVERHEAD);
    const pages = Math.ceil((TABLES_BYTES + outBytes + capacity) / PAGE_BYTES);
    const have = memory.buffer.byteLength / PAGE_BYTES;
    if (pages > have) memory.grow(pages - have);
    dataStart = TABLES_BYTES + outBytes;
    heap = new Uint8Array(memory.buffer);
    out = new Int32Array(memory.buffer, TABLES_BYTES, outBytes / 4);
  };
  reserve(PAGE_BYTES);
  return {
    walk(head, chunk, maxRecordBytes) {
      const length = head.length + chunk.length;
      if (length > capacity) reserve(length);
      heap.set(head, dataStart);
      heap.set(chunk, dataStart + head.length);
      const count = walk(dataStart, dataStart + length, maxRecordBytes, 0, TABLES_BYTES);
      return {
        bytes: heap.subarray(dataStart, dataStart + length),
        count,
        frames: out.subarray(2, 2 + 2 * count),
        stop: out[0]!,
        failed: out[1] === 1,
      };
    },
  };
}
