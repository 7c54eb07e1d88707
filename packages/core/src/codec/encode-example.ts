import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example, SequenceExample } from '../model/example.js';
import { EncodedExample, encodedBytesOf } from './encoded-example.js';
import { ExampleMeasurement, featureTypeError, fieldSize, isSequence } from './example-measurement.js';
import { writeInt64Varint, writeVarint } from './varint.js';
import { copyBytes } from './copy-bytes.js';
import { noteKnownCrc } from './known-crc32c.js';
import {
  BYTES_LIST_TAG,
  ENTRY_KEY_TAG,
  ENTRY_VALUE_TAG,
  EXAMPLE_FEATURES_TAG,
  FEATURE_LIST_FEATURE_TAG,
  FLOAT_LIST_TAG,
  INT64_LIST_TAG,
  LIST_VALUE_TAG,
  MAP_ENTRY_TAG,
  SEQUENCE_FEATURE_LISTS_TAG,
} from './wire-tags.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function writeHeader(target: Uint8Array, position: number, tag: number, payload: number): number {
  target[position] = tag;
  return writeVarint(target, position + 1, payload);
}

function writeEntryHeader(target: Uint8Array, position: number, key: Uint8Array, valueSize: number): number {
  position = writeHeader(target, position, MAP_ENTRY_TAG, fieldSize(key.length) + fieldSize(valueSize));
  position = writeHeader(target, position, ENTRY_KEY_TAG, key.length);
  target.set(key, position);
  return writeHeader(target, position + key.length, ENTRY_VALUE_TAG, valueSize);
}

/**
 * The encoder's state: one measurement reused for every value, the value it last measured (so that
 * `encodedLength` then `encodeInto` on the same value measures once), the DataView of the last target
 * (a sink writes thousands of records into one buffer) and, during one write, where to note values
 * with a known CRC.
 */
class ExampleWriter {
  readonly #measurement = new ExampleMeasurement();
  #measured: Example | SequenceExample | undefined;
  #measuredLength = 0;
  #lastTarget: Uint8Array | undefined;
  #lastView: DataView | undefined;
  #crcSpans: number[] | undefined;

  /** Measures `value`, remembering it for {@link lengthOf}. */
  measure(value: Example | SequenceExample): number {
    this.#measured = undefined;
    const length = this.#measurement.measure(value);
    this.#measured = value;
    this.#measuredLength = length;
    return length;
  }

  /** The length of `value`: the last measurement when it was of `value`, else measured now (not remembered). */
  lengthOf(value: Example | SequenceExample): number {
    if (value === this.#measured) return this.#measuredLength;
    this.#measured = undefined;
    return this.#measurement.measure(value);
  }

  /**
   * Writes `value`, which must be the value measured last, at `offset`; returns the offset after it.
   * Appends `offset, length, crc` to `crcSpans` for each large bytes value with a known CRC.
   */
  write(value: Example | SequenceExample, target: Uint8Array, offset: number, crcSpans?: number[]): number {
    this.#measurement.rewind();
    this.#measured = undefined;
    this.#crcSpans = crcSpans;
    const view = this.#viewOf(target);
    // The order of the measuring pass drives the writing.
    const position = this.#writeFeatures(target, view, offset);
    return isSequence(value) ? this.#writeFeatureLists(target, view, position) : position;
  }

  #viewOf(target: Uint8Array): DataView {
    if (target !== this.#lastTarget || this.#lastView === undefined) {
      this.#lastView = new DataView(target.buffer, target.byteOffset, target.byteLength);
      this.#lastTarget = target;
    }
    return this.#lastView;
  }

  #writeFeature(target: Uint8Array, view: DataView, position: number, key: string, feature: Feature): number {
    const measurement = this.#measurement;
    switch (feature.kind) {
      case 'bytes': {
        position = writeHeader(target, position, BYTES_LIST_TAG, measurement.nextSize());
        const values = feature.value;
        const crcSpans = this.#crcSpans;
        for (let index = 0; index < values.length; index++) {
          const value = values[index] as Uint8Array;
          position = writeHeader(target, position, LIST_VALUE_TAG, value.length);
          copyBytes(target, value, position);
          if (crcSpans !== undefined) noteKnownCrc(crcSpans, value, position);
          position += value.length;
        }
        return position;
      }
      case 'float': {
        const values = feature.value;
        const count = values.length;
        if (count === 0) return writeHeader(target, position, FLOAT_LIST_TAG, 0);
        position = writeHeader(target, position, FLOAT_LIST_TAG, fieldSize(count * 4));
        position = writeHeader(target, position, LIST_VALUE_TAG, count * 4);
        if (values instanceof Float32Array && LITTLE_ENDIAN) {
          copyBytes(target, new Uint8Array(values.buffer, values.byteOffset, count * 4), position);
          return position + count * 4;
        }
        for (let index = 0; index < count; index++) {
          const value = values[index];
          if (typeof value !== 'number')
            throw featureTypeError(key, `float feature values must be numbers, got ${typeof value}`);
          view.setFloat32(position, value, true);
          position += 4;
        }
        return position;
      }
      case 'int64': {
        const packed = measurement.nextSize();
        if (packed === 0) return writeHeader(target, position, INT64_LIST_TAG, 0);
        position = writeHeader(target, position, INT64_LIST_TAG, fieldSize(packed));
        position = writeHeader(target, position, LIST_VALUE_TAG, packed);
        const list = feature.value;
        for (let index = 0; index < list.length; index++) {
          const value = list[index] as bigint;
          const number = Number(value);
          position =
            number >= 0 && number <= MAX_SAFE
              ? writeVarint(target, position, number)
              : writeInt64Varint(target, position, value);
        }
        return position;
      }
      default:
        return position;
    }
  }

  /** Example.features, or SequenceExample.context (the same field number). */
  #writeFeatures(target: Uint8Array, view: DataView, position: number): number {
    const measurement = this.#measurement;
    const { keys, bytes } = measurement.nextKeyOrder();
    position = writeHeader(target, position, EXAMPLE_FEATURES_TAG, measurement.nextSize());
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      position = writeEntryHeader(target, position, bytes[index] as Uint8Array, measurement.nextSize());
      position = this.#writeFeature(target, view, position, key, measurement.nextValue() as Feature);
    }
    return position;
  }

  #writeFeatureLists(target: Uint8Array, view: DataView, position: number): number {
    const measurement = this.#measurement;
    const { keys, bytes } = measurement.nextKeyOrder();
    position = writeHeader(target, position, SEQUENCE_FEATURE_LISTS_TAG, measurement.nextSize());
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      position = writeEntryHeader(target, position, bytes[index] as Uint8Array, measurement.nextSize());
      for (const feature of measurement.nextValue() as readonly Feature[]) {
        position = writeHeader(target, position, FEATURE_LIST_FEATURE_TAG, measurement.nextSize());
        position = this.#writeFeature(target, view, position, key, feature);
      }
    }
    return position;
  }
}

// One writer for the functions below: each call leaves it ready for the next, and the
// `encodedLength` then `encodeInto` pairing a sink relies on needs it shared between them.
const writer = new ExampleWriter();

/**
 * The exact number of bytes `value` encodes to.
 * @throws TfpipeError `FEATURE_TYPE` for a value of the wrong type or a lone-surrogate feature name
 */
export function encodedLength(value: Example | SequenceExample): number {
  if (value instanceof EncodedExample) return value.byteLength;
  const carried = encodedBytesOf(value);
  if (carried !== undefined) return carried.length;
  return writer.measure(value);
}

/**
 * Encodes an Example or SequenceExample straight into `target` at `offset` and returns the offset
 * after it. Map entries are written in UTF-8 byte order of their keys, so equal values give equal
 * bytes. Floats are narrowed to float32.
 * Called right after `encodedLength(value)` on the same object, it reuses that measurement (the
 * value must not change in between). An Example that carries its wire bytes (an `EncodedExample`
 * from `buildExamples`, or any object with bytes under `Symbol.for('tfpipe.encoded')`) is copied as is.
 * @param target - must have `encodedLength(value)` bytes of room from `offset`
 * @param crcSpans - for sinks: where to append `offset, length, crc` (offsets in `target`, in the
 *   order written) for every bytes value of at least `KNOWN_CRC_MIN_BYTES` whose CRC-32C a source
 *   recorded (`withCrc32c`), so that framing need not read those bytes again. Values copied as is
 *   (carried wire bytes) add nothing. @default undefined (nothing is noted)
 * @throws TfpipeError `FEATURE_TYPE` for a value of the wrong type, `INVALID_OPTION` when `target` is too small
 */
export function encodeInto(
  value: Example | SequenceExample,
  target: Uint8Array,
  offset: number,
  crcSpans?: number[],
): number {
  const carried = value instanceof EncodedExample ? undefined : encodedBytesOf(value);
  const length =
    value instanceof EncodedExample
      ? value.byteLength
      : carried !== undefined
        ? carried.length
        : writer.lengthOf(value);
  if (!Number.isInteger(offset) || offset < 0 || target.length - offset < length) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `encodeInto needs ${length} bytes at offset ${offset}, the target has ${target.length}`,
      {
        fatal: true,
      },
    );
  }
  if (value instanceof EncodedExample) return value.copyInto(target, offset);
  if (carried !== undefined) {
    copyBytes(target, carried, offset);
    return offset + length;
  }
  return writer.write(value, target, offset, crcSpans);
}

/** Encodes an Example (deterministic: sorted keys) into a new, exactly sized Uint8Array. */
export function encodeExample(example: Example): Uint8Array {
  const carried = encodedBytesOf(example);
  if (carried !== undefined) return carried.slice();
  const target = new Uint8Array(writer.measure(example));
  writer.write(example, target, 0);
  return target;
}

/** Encodes a SequenceExample (deterministic: sorted keys) into a new, exactly sized Uint8Array. */
export function encodeSequenceExample(sequence: SequenceExample): Uint8Array {
  const target = new Uint8Array(writer.measure(sequence));
  writer.write(sequence, target, 0);
  return target;
}
