import { EncodedExample, FRAME_HEADER_BYTES, FRAME_TRAILER_BYTES } from '../../codec/encoded-example.js';
import { compareBytes, keyBytes } from '../../codec/feature-keys.js';
import { varintSize, writeInt64Varint, writeVarint } from '../../codec/varint.js';
import {
  bigSize,
  copy,
  entryBytes,
  fieldSize,
  listSize,
  template,
  writeNegative,
  type Template,
} from './row-encoder-bytes.js';
import type { Position } from '../../errors/tfpipe-error.js';
import { plainCells } from './byte-range.js';
import type { Feature } from '../../model/feature.js';
import type { CompiledEntry } from '../spec/compile-feature.js';
import { BYTES, FLOAT, INT64, RowSlots } from '../spec/row-cells.js';
import { generateRowWriter, type GeneratedRowWriter, type RowChunk } from './row-encoder-codegen.js';
import {
  BYTES_LIST_TAG,
  ENTRY_KEY_TAG,
  ENTRY_VALUE_TAG,
  EXAMPLE_FEATURES_TAG,
  FLOAT_LIST_TAG,
  INT64_LIST_TAG,
  LIST_VALUE_TAG,
  MAP_ENTRY_TAG,
} from '../../codec/wire-tags.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/**
 * Rows are written into shared chunks of this size; an Example keeps its chunk alive. A TFRecord sink
 * writes runs of frames straight from a chunk, so a larger chunk means fewer, larger writes.
 */
const CHUNK_BYTES = 256 * 1024;
/** Bytes a chunk keeps free after a row for a template's last word (see `#copyTemplate`). */
const SPARE = 3;
/** Feature state after the parse pass: omitted, or written from precomputed entry bytes. */
const OMITTED = -1;
const PRECOMPUTED = -2;
/** A present cell holding one int64 or float value, kept in the scalar slot of its feature. */
const SCALAR = 1;
/** Any other present cell: a list in the shared slots, or a Float32Array. */
const LIST = 2;

/** One feature of the fast path, compiled once. */
interface FastFeature {
  readonly kind: number;
  readonly entry: CompiledEntry;
  /** The name's UTF-8 bytes (entries are written in their byte order). */
  readonly key: Uint8Array;
  /** `0a keyLength key 12`: the map entry's key field and the value field's tag. */
  readonly prefix: Uint8Array;
  /** The whole map entry written for a missing cell (`empty`, `default`), or undefined (omit, error). */
  readonly missingEntry: Uint8Array | undefined;
  /**
   * For one value (the common case): everything before the value's own bytes, built on first use.
   * float: index 0; int64: index = the varint's size, 1 to 10. Not built up front: a 200k-column
   * spec spent seconds and a gigabyte on 2.2M templates, most of which no row needs.
   */
  readonly templates: (Template | undefined)[];
}

/**
 * Writes the `tf.train.Example` wire bytes of a row directly from its cells: no Feature objects, no
 * bigints for ordinary integers. A row with any cell it does not handle exactly like the Feature
 * path (a bad value, a ready Feature, an unusual type, `missing: 'error'`) is refused (`-1`), and the
 * caller builds it the Feature way, which gives the same bytes or raises the error.
 */
export class RowEncoder {
  readonly #features: readonly FastFeature[];
  /** Feature indexes in UTF-8 byte order of their names: the order the bytes need. */
  readonly #order: readonly number[];
  readonly #slots = new RowSlots();
  /**
   * Slot `index` holds the value of feature `index` when its cell is one int64 or float value: one
   * slot per feature, sized in the constructor (written by index, so it never grows on its own).
   */
  readonly #scalars: RowSlots;
  /** Per feature: OMITTED, PRECOMPUTED, SCALAR or LIST. */
  readonly #modes: Int8Array;
  /** Per feature: Feature message size. */
  #sizes: Float64Array;
  /** Per feature: list payload size (int64 packed bytes, bytes list payload). */
  #payloads: Float64Array;
  /** Per feature: its first slot and its number of values. */
  #firsts: Int32Array;
  #counts: Int32Array;
  /** Per feature: a Float32Array cell copied as it is. */
  #typed: (Float32Array | undefined)[];
  /** The chunk rows are written into, shared with the generated writer. */
  readonly #out: RowChunk = {
    bytes: new Uint8Array(0),
    view: new DataView(new ArrayBuffer(0)),
    used: 0,
    reserve(length) {
      this.bytes = new Uint8Array(Math.max(CHUNK_BYTES, length));
      this.view = new DataView(this.bytes.buffer);
      this.used = 0;
    },
  };
  /** The writer generated for this spec (the common cells), or undefined. */
  readonly #generated: GeneratedRowWriter | undefined;

  private constructor(features: readonly FastFeature[]) {
    this.#features = features;
    this.#order = features
      .map((_, index) => index)
      .sort((left, right) => compareBytes(features[left]!.key, features[right]!.key));
    const count = features.length;
    this.#scalars = new RowSlots(count);
    this.#modes = new Int8Array(count);
    this.#sizes = new Float64Array(count);
    this.#payloads = new Float64Array(count);
    this.#firsts = new Int32Array(count);
    this.#counts = new Int32Array(count);
    this.#typed = new Array<Float32Array | undefined>(count).fill(undefined);
    this.#generated = generateRowWriter(
      features.map((feature) => ({
        kind: feature.kind,
        prefix: feature.prefix,
        missing: feature.entry.missing === 'omit' ? 'omit' : feature.missingEntry,
        split: feature.entry.options.split !== undefined,
      })),
      this.#order,
      this.#out,
    );
  }

  /**
   * The encoder for a compiled spec, or undefined when the spec cannot take the fast path (a feature
   * name that is not well-formed Unicode: the codec raises that error when the Example is written).
   * @param fallbacks - per entry, the Feature a missing cell becomes (`default`), if any
   */
  static compile(
    entries: readonly CompiledEntry[],
    fallbacks: readonly (Feature | undefined)[],
  ): RowEncoder | undefined {
    const features: FastFeature[] = [];
    for (const [index, entry] of entries.entries()) {
      let key: Uint8Array;
      try {
        key = keyBytes(entry.name);
      } catch {
        return undefined;
      }
      const prefix = new Uint8Array(2 + varintSize(key.length) + key.length);
      prefix[0] = ENTRY_KEY_TAG;
      const keyStart = writeVarint(prefix, 1, key.length);
      prefix.set(key, keyStart);
      prefix[keyStart + key.length] = ENTRY_VALUE_TAG;
      const missing =
        entry.missing === 'empty'
          ? ({ kind: entry.kind, value: [] } as Feature)
          : entry.missing === 'default'
            ? fallbacks[index]
            : undefined;
      features.push({
        kind: entry.kind === 'int64' ? INT64 : entry.kind === 'float' ? FLOAT : BYTES,
        entry,
        key,
        prefix,
        missingEntry: missing === undefined ? undefined : entryBytes(entry.name, missing),
        templates: [],
      });
    }
    return new RowEncoder(features);
  }

  /**
   * Encodes a row from its cells (in spec order) and returns it as an {@link EncodedExample}, or
   * undefined when the row must take the Feature path. `position` is kept on the Example.
   */
  encode(cells: readonly unknown[], position?: Position): EncodedExample | undefined {
    const generated = this.#generated?.(cells, position);
    if (generated !== undefined) return generated;
    // Ranges and number holders are written as their views and numbers would be.
    const total = this.#parse(plainCells(cells));
    if (total < 0) return undefined;
    const length = 1 + varintSize(total) + total;
    const out = this.#out;
    const room = FRAME_HEADER_BYTES + length + FRAME_TRAILER_BYTES + SPARE;
    if (out.bytes.length - out.used < room) out.reserve(room);
    const start = out.used + FRAME_HEADER_BYTES;
    const chunk = out.bytes;
    chunk[start] = EXAMPLE_FEATURES_TAG;
    out.used = this.#write(chunk, writeVarint(chunk, start + 1, total)) + FRAME_TRAILER_BYTES;
    return new EncodedExample(chunk, start, length, true, position);
  }

  /** Parses every cell into slots and sizes; returns the Features message size, or -1 to refuse the row. */
  #parse(cells: readonly unknown[]): number {
    const features = this.#features;
    const modes = this.#modes;
    const sizes = this.#sizes;
    const scalars = this.#scalars;
    this.#slots.count = 0;
    let total = 0;
    for (let index = 0; index < features.length; index++) {
      const feature = features[index]!;
      const cell = cells[index];
      let size: number;
      if (cell === undefined || cell === null || cell === '') {
        if (feature.entry.missing === 'omit') {
          modes[index] = OMITTED;
          continue;
        }
        if (feature.missingEntry === undefined) return -1;
        modes[index] = PRECOMPUTED;
        total += feature.missingEntry.length;
        continue;
      }
      const kind = feature.kind;
      const single =
        typeof cell !== 'object' && (typeof cell !== 'string' || feature.entry.options.split === undefined);
      if (kind === INT64 && single) {
        // One value: 1a (2+s) 0a s varint, where s is the varint's size.
        if (!scalars.int64(cell, index, feature.entry.context)) return -1;
        const number = scalars.numbers[index]!;
        size = 4 + (number >= 0 ? varintSize(number) : number === number ? 10 : bigSize(scalars, index));
        modes[index] = SCALAR;
      } else if (kind === FLOAT && single) {
        if (!scalars.float(cell, index, feature.entry.context)) return -1;
        size = 8; // 12 06 0a 04 + four bytes
        modes[index] = SCALAR;
      } else {
        size = this.#parseCell(index, feature, cell);
        if (size < 0) return -1;
        modes[index] = LIST;
      }
      sizes[index] = size;
      const entry = feature.prefix.length + varintSize(size) + size;
      total += 1 + varintSize(entry) + entry;
    }
    return total;
  }

  /** The Feature message size of one present cell as a list, or -1. */
  #parseCell(index: number, feature: FastFeature, cell: unknown): number {
    const slots = this.#slots;
    const { kind, entry } = feature;
    const context = entry.context;
    const first = slots.count;
    this.#firsts[index] = first;
    this.#typed[index] = undefined;
    if (typeof cell === 'string' && entry.options.split !== undefined) {
      for (const piece of cell.split(entry.options.split)) if (!slots.value(kind, piece, context)) return -1;
    } else if (typeof cell !== 'object') {
      if (!slots.value(kind, cell, context)) return -1;
    } else if (Array.isArray(cell)) {
      for (let item = 0; item < cell.length; item++) {
        const value: unknown = cell[item];
        if (value === null || value === undefined || Array.isArray(value)) return -1;
        if (!slots.value(kind, value, context)) return -1;
      }
    } else if (kind === BYTES && cell instanceof Uint8Array) {
      if (!slots.value(kind, cell, context)) return -1;
    } else if (kind === FLOAT && cell instanceof Float32Array) {
      this.#typed[index] = cell;
      this.#counts[index] = cell.length;
      return listSize(cell.length === 0 ? 0 : fieldSize(cell.length * 4));
    } else {
      return -1;
    }
    const count = slots.count - first;
    this.#counts[index] = count;
    if (kind === FLOAT) return listSize(count === 0 ? 0 : fieldSize(count * 4));
    let payload = 0;
    const numbers = slots.numbers;
    if (kind === INT64) {
      for (let slot = first; slot < slots.count; slot++) {
        const number = numbers[slot]!;
        payload += number >= 0 ? varintSize(number) : number === number ? 10 : bigSize(slots, slot);
      }
      this.#payloads[index] = payload;
      return listSize(payload === 0 ? 0 : fieldSize(payload));
    }
    for (let slot = first; slot < slots.count; slot++) payload += fieldSize(numbers[slot]!);
    this.#payloads[index] = payload;
    return listSize(payload);
  }

  /** Writes the map entries in key order; returns the end offset. */
  #write(target: Uint8Array, position: number): number {
    const features = this.#features;
    const order = this.#order;
    const modes = this.#modes;
    const numbers = this.#scalars.numbers;
    for (let rank = 0; rank < order.length; rank++) {
      const index = order[rank]!;
      const mode = modes[index]!;
      if (mode === OMITTED) continue;
      const feature = features[index]!;
      if (mode === SCALAR) {
        if (feature.kind === FLOAT) {
          position = this.#copyTemplate(feature.templates[0] ?? templateOf(feature, 0), position);
          this.#out.view.setFloat32(position, numbers[index]!, true);
          position += 4;
        } else {
          const number = numbers[index]!;
          const size = this.#sizes[index]! - 4;
          position = this.#copyTemplate(feature.templates[size] ?? templateOf(feature, size), position);
          position =
            number >= 0
              ? writeVarint(target, position, number)
              : number === number
                ? writeNegative(target, position, number)
                : writeInt64Varint(target, position, this.#scalars.objects[index] as bigint);
        }
        continue;
      }
      if (mode === PRECOMPUTED) {
        position = copy(feature.missingEntry!, target, position);
        continue;
      }
      const size = this.#sizes[index]!;
      const prefix = feature.prefix;
      target[position] = MAP_ENTRY_TAG;
      position = writeVarint(target, position + 1, prefix.length + varintSize(size) + size);
      position = copy(prefix, target, position);
      position = writeVarint(target, position, size);
      position = this.#writeList(target, position, index, feature.kind);
    }
    return position;
  }

  /**
   * Copies a template word by word. The last word may run up to 3 bytes past it: those bytes are
   * written again by what follows (the value always does), and a chunk keeps 3 spare bytes.
   */
  #copyTemplate(template: Template, position: number): number {
    const view = this.#out.view;
    const words = template.words;
    for (let index = 0; index < words.length; index++)
      view.setUint32(position + index * 4, words[index]!, true);
    return position + template.length;
  }

  #writeList(target: Uint8Array, position: number, index: number, kind: number): number {
    const slots = this.#slots;
    const first = this.#firsts[index]!;
    const count = this.#counts[index]!;
    const numbers = slots.numbers;
    if (kind === FLOAT) {
      target[position] = FLOAT_LIST_TAG;
      if (count === 0) {
        target[position + 1] = 0;
        return position + 2;
      }
      position = writeVarint(target, position + 1, fieldSize(count * 4));
      target[position] = LIST_VALUE_TAG;
      position = writeVarint(target, position + 1, count * 4);
      const typed = this.#typed[index];
      if (typed !== undefined && LITTLE_ENDIAN) {
        target.set(new Uint8Array(typed.buffer, typed.byteOffset, count * 4), position);
        return position + count * 4;
      }
      const view = this.#out.view;
      for (let value = 0; value < count; value++) {
        view.setFloat32(position, typed === undefined ? numbers[first + value]! : typed[value]!, true);
        position += 4;
      }
      return position;
    }
    const payload = this.#payloads[index]!;
    if (kind === INT64) {
      target[position] = INT64_LIST_TAG;
      if (count === 0) {
        target[position + 1] = 0;
        return position + 2;
      }
      position = writeVarint(target, position + 1, fieldSize(payload));
      target[position] = LIST_VALUE_TAG;
      position = writeVarint(target, position + 1, payload);
      for (let slot = first; slot < first + count; slot++) {
        const number = numbers[slot]!;
        position =
          number >= 0
            ? writeVarint(target, position, number)
            : number === number
              ? writeNegative(target, position, number)
              : writeInt64Varint(target, position, slots.objects[slot] as bigint);
      }
      return position;
    }
    target[position] = BYTES_LIST_TAG;
    position = writeVarint(target, position + 1, payload);
    const objects = slots.objects;
    for (let slot = first; slot < first + count; slot++) {
      const length = numbers[slot]!;
      target[position] = LIST_VALUE_TAG;
      position = writeVarint(target, position + 1, length);
      const value = objects[slot];
      if (typeof value === 'string') {
        for (let char = 0; char < length; char++) target[position + char] = value.charCodeAt(char);
        position += length;
      } else {
        position = copy(value as Uint8Array, target, position);
      }
    }
    return position;
  }
}

/** Builds and keeps `feature`'s template for `size` (see `FastFeature.templates`). */
function templateOf(feature: FastFeature, size: number): Template {
  return (feature.templates[size] = template(feature.entry.kind, feature.prefix, size));
}
