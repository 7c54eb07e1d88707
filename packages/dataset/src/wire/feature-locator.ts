import { KeyTable } from './key-table.js';
import { WireReader } from './wire-reader.js';

const WIRE_LENGTH_DELIMITED = 2;
const encoder = new TextEncoder();

/** The kind of a located feature: its `tf.train.Feature` oneof field number, 0 for none (missing or kindless). */
export const KIND_NONE = 0;
export const KIND_BYTES = 1;
export const KIND_FLOAT = 2;
export const KIND_INT64 = 3;

/**
 * Walks one serialized Example (Example → Features → map entries) and notes, for each feature name
 * the spec asks for, where its Feature payloads lie, without decoding anything else. Keys are
 * compared as bytes, as TensorFlow's parser does, so features nobody asked for cost no string.
 * Protobuf's rules apply: a key given twice keeps its last entry; an entry's values given twice merge.
 */
export class FeatureLocator {
  readonly reader = new WireReader();
  private readonly keys: Uint8Array[];
  private readonly table: KeyTable;
  private readonly present: Uint8Array;
  private readonly starts: number[][];
  private readonly ends: number[][];
  private readonly counts: Int32Array;
  private readonly entryStarts: number[] = [];
  private readonly entryEnds: number[] = [];
  /** The slot the n-th entry matched in the previous Example: writers keep their key order, so it is tried first. */
  private predicted = new Int32Array(64).fill(-1);
  private entryIndex = 0;
  /** The list payloads of the kind the last `resolve` found. */
  readonly listStarts: number[] = [];
  readonly listEnds: number[] = [];
  listCount = 0;

  /** The Feature payloads of each step of the last `steps` call. */
  readonly stepStarts: number[] = [];
  readonly stepEnds: number[] = [];

  /**
   * @param names the feature names to find
   * @param mapField the top-level field holding the map: 1 for `Example.features` and
   *   `SequenceExample.context`, 2 for `SequenceExample.feature_lists` (whose values are FeatureLists)
   */
  constructor(
    names: readonly string[],
    private readonly mapField: 1 | 2 = 1,
  ) {
    this.keys = names.map((name) => encoder.encode(name));
    this.table = new KeyTable(this.keys);
    this.present = new Uint8Array(names.length);
    this.starts = names.map(() => []);
    this.ends = names.map(() => []);
    this.counts = new Int32Array(names.length);
  }

  /** Finds the features of one serialized Example. */
  locate(bytes: Uint8Array): void {
    const reader = this.reader;
    reader.reset(bytes);
    this.present.fill(0);
    this.entryIndex = 0;
    const end = bytes.length;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      if (tag >>> 3 !== this.mapField) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      reader.expectWireType(
        tag,
        tagStart,
        WIRE_LENGTH_DELIMITED,
        this.mapField === 1 ? 'Example.features' : 'SequenceExample.feature_lists',
      );
      this.features(reader.lengthDelimited(end));
    }
  }

  private features(end: number): void {
    const reader = this.reader;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      if (tag >>> 3 !== 1) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, 'Features.feature');
      this.entry(reader.lengthDelimited(end));
    }
  }

  private entry(end: number): void {
    if (this.canonicalEntry(end)) return;
    const reader = this.reader;
    let keyStart = 0;
    let keyEnd = 0;
    let valueCount = 0;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      const field = tag >>> 3;
      if (field !== 1 && field !== 2) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, field === 1 ? 'map key' : 'map value');
      const fieldEnd = reader.lengthDelimited(end);
      if (field === 1) {
        keyStart = reader.position;
        keyEnd = fieldEnd;
      } else {
        this.entryStarts[valueCount] = reader.position;
        this.entryEnds[valueCount] = fieldEnd;
        valueCount++;
      }
      reader.position = fieldEnd;
    }
    const slot = this.find(keyStart, keyEnd);
    if (slot < 0) return;
    const starts = this.starts[slot] as number[];
    const ends = this.ends[slot] as number[];
    for (let index = 0; index < valueCount; index++) {
      starts[index] = this.entryStarts[index] as number;
      ends[index] = this.entryEnds[index] as number;
    }
    this.counts[slot] = valueCount;
    this.present[slot] = 1;
  }

  /**
   * The entry as writers lay it out (key with a one-byte length, then the value with a length of one
   * or two bytes, nothing else) is read without the general loop; anything else returns false.
   */
  private canonicalEntry(end: number): boolean {
    const reader = this.reader;
    const bytes = reader.bytes;
    const start = reader.position;
    if (start + 1 >= end || bytes[start] !== 0x0a) return false;
    const keyLength = bytes[start + 1] as number;
    const keyEnd = start + 2 + keyLength;
    if (keyLength >= 0x80 || keyEnd + 1 >= end || bytes[keyEnd] !== 0x12) return false;
    let position = keyEnd + 1;
    let valueLength = bytes[position++] as number;
    if (valueLength >= 0x80) {
      const next = bytes[position++] as number;
      if (position > end || next >= 0x80) return false;
      valueLength = (valueLength & 0x7f) | (next << 7);
    }
    if (position + valueLength !== end) return false;
    reader.position = end;
    const slot = this.find(start + 2, keyEnd);
    if (slot < 0) return true;
    (this.starts[slot] as number[])[0] = position;
    (this.ends[slot] as number[])[0] = end;
    this.counts[slot] = 1;
    this.present[slot] = 1;
    return true;
  }

  private find(start: number, end: number): number {
    const entryIndex = this.entryIndex++;
    if (entryIndex >= this.predicted.length) {
      const grown = new Int32Array(entryIndex * 2).fill(-1);
      grown.set(this.predicted);
      this.predicted = grown;
    }
    const guess = this.predicted[entryIndex] as number;
    if (guess >= 0 && this.matches(guess, start, end)) return guess;
    const slot = this.lookup(start, end);
    this.predicted[entryIndex] = slot;
    return slot;
  }

  private matches(slot: number, start: number, end: number): boolean {
    const key = this.keys[slot] as Uint8Array;
    if (key.length !== end - start) return false;
    const bytes = this.reader.bytes;
    for (let index = 0; index < key.length; index++) if (key[index] !== bytes[start + index]) return false;
    return true;
  }

  private lookup(start: number, end: number): number {
    return this.table.slotOf(this.reader.bytes, start, end);
  }

  /**
   * The kind of the feature in `slot` for the last located Example (`KIND_NONE` when missing or
   * kindless), leaving its list payloads in `listStarts` / `listEnds`. A later list of another kind
   * replaces the earlier ones (the kind is a oneof); lists of the same kind merge.
   */
  resolve(slot: number): number {
    this.listCount = 0;
    if (this.present[slot] === 0) return KIND_NONE;
    return this.resolveRanges(
      this.starts[slot] as number[],
      this.ends[slot] as number[],
      this.counts[slot] as number,
    );
  }

  /**
   * For a feature-list locator: the number of steps of the FeatureList in `slot` (-1 when it is
   * missing), leaving each step's Feature payload in `stepStarts` / `stepEnds`.
   */
  steps(slot: number): number {
    if (this.present[slot] === 0) return -1;
    const reader = this.reader;
    const starts = this.starts[slot] as number[];
    const ends = this.ends[slot] as number[];
    let count = 0;
    // A FeatureList given twice in one entry merges: its steps follow one another.
    for (let range = 0; range < (this.counts[slot] as number); range++) {
      reader.position = starts[range] as number;
      const end = ends[range] as number;
      while (reader.position < end) {
        const tagStart = reader.position;
        const tag = reader.tag(end);
        if (tag >>> 3 !== 1) {
          reader.skip(tag, tagStart, end);
          continue;
        }
        reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, 'FeatureList.feature');
        const stepEnd = reader.lengthDelimited(end);
        this.stepStarts[count] = reader.position;
        this.stepEnds[count] = stepEnd;
        count++;
        reader.position = stepEnd;
      }
    }
    return count;
  }

  /** Like `resolve`, for step `step` of the last `steps` call. */
  resolveStep(step: number): number {
    this.listCount = 0;
    this.oneStart[0] = this.stepStarts[step] as number;
    this.oneEnd[0] = this.stepEnds[step] as number;
    return this.resolveRanges(this.oneStart, this.oneEnd, 1);
  }

  private readonly oneStart: number[] = [0];
  private readonly oneEnd: number[] = [0];

  private resolveRanges(starts: readonly number[], ends: readonly number[], count: number): number {
    const reader = this.reader;
    if (count === 1) {
      // A Feature holding one list with a one-byte length, as writers lay out short lists.
      const bytes = reader.bytes;
      const start = starts[0] as number;
      const end = ends[0] as number;
      const tag = bytes[start] as number;
      if (
        (tag === 0x0a || tag === 0x12 || tag === 0x1a) &&
        start + 1 < end &&
        start + 2 + (bytes[start + 1] as number) === end
      ) {
        this.listStarts[0] = start + 2;
        this.listEnds[0] = end;
        this.listCount = 1;
        return tag >>> 3;
      }
    }
    let kind = KIND_NONE;
    for (let range = 0; range < count; range++) {
      reader.position = starts[range] as number;
      const end = ends[range] as number;
      while (reader.position < end) {
        const tagStart = reader.position;
        const tag = reader.tag(end);
        const field = tag >>> 3;
        if (field < 1 || field > 3) {
          reader.skip(tag, tagStart, end);
          continue;
        }
        reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, `Feature field ${field}`);
        const listEnd = reader.lengthDelimited(end);
        if (field !== kind) {
          kind = field;
          this.listCount = 0;
        }
        this.listStarts[this.listCount] = reader.position;
        this.listEnds[this.listCount] = listEnd;
        this.listCount++;
        reader.position = listEnd;
      }
    }
    return kind;
  }
}
