import { KeyTable } from '../wire/key-table.js';
import { LITTLE_ENDIAN } from '../wire/value-buffer.js';
import { readInt64, readLength, varintResult } from '../wire/wire-varint.js';
import type { Column } from './column.js';
import { DenseColumn } from './dense-column.js';
import { BYTES, FLOAT32, generateRead, INT32, INT64, LIST_TAGS, NUMBER } from './generated-reader.js';
import type { GeneratedRead, LayoutEntry } from './generated-reader.js';
import { stringBlocks } from './string-blocks.js';

/** How a slot's values are stored: one code per output array type, so each store site sees one type. */
const MODES = { int64: INT64, int32: INT32, number: NUMBER, float32: FLOAT32, string: BYTES } as const;
/** At most this many packed floats are copied byte by byte rather than through a `subarray`. */
const SMALL_COPY = 16;
const EMPTY_WORDS = new Int32Array(0);
const EMPTY_FLOATS = new Float64Array(0);
const EMPTY_BYTES = new Uint8Array(0);
/** At most this many layouts are learned in one batch (each costs a generated reader, or a cache lookup). */
const MAX_LEARNED_PER_BATCH = 4;
/** How many of its hits a learned layout carries into the next batch (see `learnable`). */
const KEPT_HITS = 16;

/**
 * The fast path of `parseExample` when every output is a FixedLen feature: one pass over an Example's
 * bytes, as the usual writers lay them out (one `features` field, map entries `key, value` with short
 * keys, one list per Feature, packed or unpacked), storing each value straight into its batch array,
 * with the slot of each entry predicted from the previous Example. `read` returns false for anything
 * else (a missing, repeated, kindless or wrongly typed feature, a wrong count, an out-of-range int64,
 * an unusual layout, malformed bytes), and the general parser reads that record again from scratch:
 * it overwrites every value of the row and raises TensorFlow's errors, so both give the same batch.
 */
export class DenseRecordReader {
  private readonly keys: Uint8Array[];
  private readonly table: KeyTable;
  private readonly modes: Uint8Array;
  private readonly elements: Int32Array;
  private readonly seen: Int32Array;
  /** Each key's first and last 4 bytes as little-endian words (keys of 4 to 8 bytes are compared by them). */
  private readonly heads: Int32Array;
  private readonly tails: Int32Array;
  private stamp = 0;
  private predicted = new Int32Array(64).fill(-1);
  private readonly words: Int32Array[];
  private readonly numbers: Float64Array[];
  private readonly floatBytes: Uint8Array[];
  /** The float32 arrays as 32-bit words: the generated reader stores each float's 4 bytes as one word. */
  private readonly floatWords: Int32Array[];
  private readonly strings: Uint8Array[][];
  /** Whether a view of the bytes read went into the batch (set by `finish`). */
  lent = false;
  /** The reader generated for the last layout learned, and the batch arrays it writes (refilled by `bind`). */
  private generated: GeneratedRead | undefined;
  private readonly outputs: unknown[];
  /**
   * How many more layouts this batch may learn: a record the generated reader misses teaches it its
   * layout while the reader has missed more records than it took since it learned (so a batch that
   * began with a rare layout moves on to the common one), at most {@link MAX_LEARNED_PER_BATCH} times
   * a batch. A new batch keeps up to {@link KEPT_HITS} hits: a few odd records at its start do not
   * replace a layout that served the batches before.
   */
  private learnable = 0;
  /** Records the generated reader took, and missed, since it learned its layout (see `learnable`). */
  private hits = 0;
  private misses = 0;
  /** The entries of the record being read, while learning. */
  private readonly layout: LayoutEntry[] = [];
  /** How many records the generated reader took (for tests and profiles). */
  generatedReads = 0;

  private constructor(
    keys: readonly string[],
    private readonly columns: readonly DenseColumn[],
  ) {
    const encoder = new TextEncoder();
    this.keys = keys.map((key) => encoder.encode(key));
    this.table = new KeyTable(this.keys);
    this.modes = Uint8Array.from(columns, (column) => MODES[column.spec.dtype]);
    this.elements = Int32Array.from(columns, (column) => column.elements);
    this.seen = new Int32Array(keys.length);
    const word = (key: Uint8Array, at: number): number =>
      key[at]! | (key[at + 1]! << 8) | (key[at + 2]! << 16) | (key[at + 3]! << 24) | 0;
    this.heads = Int32Array.from(this.keys, (key) => (key.length >= 4 ? word(key, 0) : 0));
    this.tails = Int32Array.from(this.keys, (key) => (key.length >= 4 ? word(key, key.length - 4) : 0));
    this.words = columns.map(() => EMPTY_WORDS);
    this.numbers = columns.map(() => EMPTY_FLOATS);
    this.floatBytes = columns.map(() => EMPTY_BYTES);
    this.floatWords = columns.map(() => EMPTY_WORDS);
    this.strings = columns.map(() => []);
    this.outputs = columns.map(() => undefined);
  }

  /** A reader for the spec's columns, or undefined unless all are FixedLen (each on its own key). */
  static of(keys: readonly string[], columns: readonly Column[]): DenseRecordReader | undefined {
    if (!LITTLE_ENDIAN || columns.length !== keys.length || keys.length === 0) return undefined;
    const dense: DenseColumn[] = [];
    for (const column of columns) {
      if (!(column instanceof DenseColumn) || column.slot !== dense.length) return undefined;
      dense.push(column);
    }
    return new DenseRecordReader(keys, dense);
  }

  /**
   * Takes the arrays of the batch the columns just started. `lend`: the bytes the batch is read from
   * are its own (never written again), so byte strings over 1 KiB become views of them, not copies.
   */
  bind(lend = false): void {
    stringBlocks.begin(lend);
    this.lent = false;
    this.columns.forEach((column, slot) => {
      const values = column.values;
      const data = values.data;
      if (values.words !== undefined) this.words[slot] = values.words;
      else if (data instanceof Int32Array) this.words[slot] = data;
      else if (data instanceof Float64Array) this.numbers[slot] = data;
      else if (data instanceof Float32Array) {
        this.floatBytes[slot] = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        this.floatWords[slot] = new Int32Array(data.buffer, data.byteOffset, data.length);
      } else this.strings[slot] = data as Uint8Array[];
      const mode = this.modes[slot]!;
      this.outputs[slot] =
        mode === BYTES
          ? this.strings[slot]
          : mode === FLOAT32
            ? this.floatWords[slot]
            : mode === NUMBER
              ? this.numbers[slot]
              : this.words[slot];
    });
    this.learnable = MAX_LEARNED_PER_BATCH;
    this.hits = Math.min(this.hits, KEPT_HITS);
    this.misses = 0;
  }

  /**
   * Reads the Example in `bytes[start, end)` into row `row`; false leaves it to the general parser.
   * Records of the layout learned last go through the reader generated for it; a record it misses and
   * the loop reads may teach it that record's layout (see `learnable`).
   */
  read(bytes: Uint8Array, start: number, end: number, row: number): boolean {
    const generated = this.generated;
    if (generated !== undefined && generated(bytes, start, end, row, this.outputs, this.floatBytes)) {
      this.generatedReads++;
      this.hits++;
      return true;
    }
    if (this.learnable === 0 || ++this.misses <= this.hits) return this.loop(bytes, start, end, row, false);
    this.layout.length = 0;
    if (!this.loop(bytes, start, end, row, true)) return false;
    this.learnable--;
    this.misses = 0;
    this.hits = 0;
    this.generated = generateRead(this.layout, this.modes, this.elements);
    return true;
  }

  /** The general loop over an Example's entries; `learning` records their layout in `layout`. */
  private loop(bytes: Uint8Array, start: number, end: number, row: number, learning: boolean): boolean {
    // The one-byte lengths are read in line, not through readLength: V8 does not inline its loop, and
    // a call per length measured a third of this path's time (bench/README.md, case c).
    if (start >= end || bytes[start] !== 0x0a) return false;
    let position = start + 1;
    let length = bytes[position] as number;
    if (length < 0x80 && position < end) position++;
    else {
      position = readLength(bytes, position, end);
      if (position < 0) return false;
      length = varintResult.low;
    }
    if (position + length !== end) return false;
    const stamp = ++this.stamp;
    const seen = this.seen;
    const predicted = this.predicted;
    let found = 0;
    let entryIndex = 0;
    while (position < end) {
      if (bytes[position] !== 0x0a) return false;
      length = bytes[++position] as number;
      if (length < 0x80 && position < end) position++;
      else {
        position = readLength(bytes, position, end);
        if (position < 0) return false;
        length = varintResult.low;
      }
      const entryEnd = position + length;
      const keyLength = bytes[position + 1] as number;
      const keyEnd = position + 2 + keyLength;
      if (entryEnd > end || bytes[position] !== 0x0a || keyLength >= 0x80 || keyEnd >= entryEnd) return false;
      if (bytes[keyEnd] !== 0x12) return false;
      position = keyEnd + 1;
      length = bytes[position] as number;
      if (length < 0x80 && position < entryEnd) position++;
      else {
        position = readLength(bytes, position, entryEnd);
        if (position < 0) return false;
        length = varintResult.low;
      }
      if (position + length !== entryEnd) return false;
      let slot = entryIndex < predicted.length ? (predicted[entryIndex] as number) : -1;
      if (slot < 0 || !this.matches(bytes, slot, keyEnd - keyLength, keyEnd))
        slot = this.find(bytes, keyEnd - keyLength, keyEnd, entryIndex);
      entryIndex++;
      if (learning) {
        // Whether the values come packed is read below, once the list's length is passed.
        this.layout.push({ slot, key: bytes.slice(keyEnd - keyLength, keyEnd), packed: false });
      }
      if (slot >= 0) {
        if (seen[slot] === stamp) return false;
        seen[slot] = stamp;
        found++;
        const mode = this.modes[slot] as number;
        if (position >= entryEnd || bytes[position] !== LIST_TAGS[mode]) return false;
        length = bytes[++position] as number;
        if (length < 0x80 && position < entryEnd) position++;
        else {
          position = readLength(bytes, position, entryEnd);
          if (position < 0) return false;
          length = varintResult.low;
        }
        if (position + length !== entryEnd) return false;
        if (learning && position < entryEnd && bytes[position] === 0x0a)
          this.layout[entryIndex - 1] = { ...this.layout[entryIndex - 1]!, packed: true };
        if (!this.values(bytes, position, entryEnd, slot, mode, row)) return false;
      }
      position = entryEnd;
    }
    return found === this.keys.length;
  }

  private values(
    bytes: Uint8Array,
    start: number,
    end: number,
    slot: number,
    mode: number,
    row: number,
  ): boolean {
    const elements = this.elements[slot] as number;
    if (mode === BYTES)
      return this.byteValues(bytes, start, end, this.strings[slot]!, row * elements, elements);
    if (mode === FLOAT32)
      return this.floatValues(bytes, start, end, this.floatBytes[slot]!, row * elements, elements);
    return this.intValues(bytes, start, end, slot, mode, row * elements, elements);
  }

  private byteValues(
    bytes: Uint8Array,
    position: number,
    end: number,
    out: Uint8Array[],
    offset: number,
    count: number,
  ): boolean {
    for (let index = 0; index < count; index++) {
      if (position >= end || bytes[position] !== 0x0a) return false;
      position = readLength(bytes, position + 1, end);
      if (position < 0) return false;
      const valueEnd = position + varintResult.low;
      if (valueEnd > end) return false;
      out[offset + index] = stringBlocks.copy(bytes, position, valueEnd);
      position = valueEnd;
    }
    return position === end;
  }

  /** The batch bound last is read: notes whether it kept views of the bytes it was read from. */
  finish(): void {
    this.lent = stringBlocks.lent;
  }

  private floatValues(
    bytes: Uint8Array,
    position: number,
    end: number,
    out: Uint8Array,
    offset: number,
    count: number,
  ): boolean {
    const length = count * 4;
    if (bytes[position] === 0x0a) {
      // Packed: exactly the values' bytes, as TensorFlow and tfpipe write them.
      position = readLength(bytes, position + 1, end);
      if (position < 0 || varintResult.low !== length || position + length !== end) return false;
      if (count > SMALL_COPY) out.set(bytes.subarray(position, end), offset * 4);
      else
        for (let index = 0; index < length; index++)
          out[offset * 4 + index] = bytes[position + index] as number;
      return true;
    }
    if (end - position !== count * 5) return false;
    for (let index = 0; index < count; index++, position += 5) {
      if (bytes[position] !== 0x0d) return false;
      const at = (offset + index) * 4;
      out[at] = bytes[position + 1] as number;
      out[at + 1] = bytes[position + 2] as number;
      out[at + 2] = bytes[position + 3] as number;
      out[at + 3] = bytes[position + 4] as number;
    }
    return true;
  }

  private intValues(
    bytes: Uint8Array,
    position: number,
    end: number,
    slot: number,
    mode: number,
    offset: number,
    count: number,
  ): boolean {
    const packed = bytes[position] === 0x0a;
    if (packed) {
      position = readLength(bytes, position + 1, end);
      if (position < 0 || position + varintResult.low !== end) return false;
    }
    const words = this.words[slot]!;
    const numbers = this.numbers[slot]!;
    for (let at = offset, last = offset + count; at < last; at++) {
      if (!packed) {
        if (position >= end || bytes[position] !== 0x08) return false;
        position++;
      }
      let low: number;
      let high = 0;
      const first = bytes[position] as number;
      if (first < 0x80 && position < end) {
        // One byte: 0 to 127, the most common value in tabular data.
        low = first;
        position++;
      } else {
        position = readInt64(bytes, position, end);
        if (position < 0) return false;
        low = varintResult.low;
        high = varintResult.high;
      }
      if (mode === INT64) {
        words[at * 2] = low;
        words[at * 2 + 1] = high;
      } else if (mode === INT32) {
        if (high !== (low | 0) >> 31) return false;
        words[at] = low;
      } else {
        const value = high * 4294967296 + low;
        if (high < -0x200000 || high > 0x1fffff || !Number.isSafeInteger(value)) return false;
        numbers[at] = value;
      }
    }
    return position === end;
  }

  /** The slot of the key in `bytes[start, end)` when the guess for entry `entryIndex` missed; remembered as the next guess. */
  private find(bytes: Uint8Array, start: number, end: number, entryIndex: number): number {
    if (entryIndex >= this.predicted.length) {
      const grown = new Int32Array(entryIndex * 2).fill(-1);
      grown.set(this.predicted);
      this.predicted = grown;
    }
    const slot = this.table.slotOf(bytes, start, end);
    this.predicted[entryIndex] = slot;
    return slot;
  }

  private matches(bytes: Uint8Array, slot: number, start: number, end: number): boolean {
    const key = this.keys[slot] as Uint8Array;
    const length = key.length;
    if (length !== end - start) return false;
    if (length >= 4 && length <= 8) {
      // Two 4-byte words, the first and the last, cover every byte of a key of 4 to 8 bytes.
      const last = end - 4;
      return (
        this.heads[slot] ===
          ((bytes[start] as number) |
            ((bytes[start + 1] as number) << 8) |
            ((bytes[start + 2] as number) << 16) |
            ((bytes[start + 3] as number) << 24)) &&
        this.tails[slot] ===
          ((bytes[last] as number) |
            ((bytes[last + 1] as number) << 8) |
            ((bytes[last + 2] as number) << 16) |
            ((bytes[last + 3] as number) << 24))
      );
    }
    for (let index = 0; index < length; index++) if (key[index] !== bytes[start + index]) return false;
    return true;
  }
}
