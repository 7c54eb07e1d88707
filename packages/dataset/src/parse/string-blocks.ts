const EMPTY_BYTES = new Uint8Array(0);
/** Byte strings of a batch are copied into shared blocks of this size, each value a view of its block. */
const STRING_BLOCK_BYTES = 64 * 1024;
/** A value longer than this gets an array of its own instead. */
const MAX_BLOCK_VALUE = 1024;

/**
 * Where the dense reader and its generated readers copy byte strings to: one object per thread, for
 * every parser. A batch is parsed in one synchronous call, so parsers take turns: `begin` before a
 * batch, `lent` read after it. It lives as long as the thread: the generated readers' optimized code
 * embeds its map, and an object that died with a dataset would make V8 drop that code at the next full
 * collection and compile it again (docs in bench/README.md, case c).
 */
export class StringBlocks {
  /** The block short byte strings are copied into, and how much of it is used. */
  private block = EMPTY_BYTES;
  private used = 0;
  /** Whether the bytes being read are the batch's to keep: long byte strings are then views of them. */
  private lend = false;
  /** Whether a view of the bytes read went into the batch since `begin`. */
  lent = false;

  /** Starts a batch; `lend` as in `DenseRecordReader.bind`. */
  begin(lend: boolean): void {
    this.lend = lend;
    this.lent = false;
  }

  /**
   * A copy of `bytes[start, end)`: short values share a block (one view each rather than an array
   * each, which measured the larger part of reading a string), long ones get their own array, or are
   * views of `bytes` when they are lent (a copy and an allocation per image was most of the fused
   * parse of an image file, garbage collection included).
   */
  copy(bytes: Uint8Array, start: number, end: number): Uint8Array {
    const length = end - start;
    if (length > MAX_BLOCK_VALUE) {
      if (!this.lend) return bytes.slice(start, end);
      this.lent = true;
      return new Uint8Array(bytes.buffer, bytes.byteOffset + start, length);
    }
    let used = this.used;
    if (used + length > this.block.length) {
      this.block = new Uint8Array(STRING_BLOCK_BYTES);
      used = 0;
    }
    const block = this.block;
    for (let index = 0; index < length; index++) block[used + index] = bytes[start + index] as number;
    this.used = used + length;
    // A view made by the constructor: `subarray` looks up the species constructor each time, which
    // measured ~1.7x the cost of this per short value (bench/README.md, case c).
    return new Uint8Array(block.buffer, block.byteOffset + used, length);
  }
}

/** This thread's string blocks. */
export const stringBlocks = new StringBlocks();
