import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example, Features, SequenceExample } from '../model/example.js';
import { EncodedExample, encodedBytesOf } from './encoded-example.js';
import { sortedKeys } from './feature-keys.js';
import type { SortedKeys } from './feature-keys.js';
import { int64VarintSize, varintSize, writeInt64Varint, writeVarint } from './varint.js';
import { copyBytes } from './copy-bytes.js';
import { KNOWN_CRC_MIN_BYTES, noteWrittenBytes } from './known-crc32c.js';

// Tags (field number << 3 | wire type) of the tf.train messages; every field here is length-delimited.
const TAG_1 = 0x0a; // Example.features, SequenceExample.context, map entries, entry key, *List.value, FeatureList.feature
const TAG_2 = 0x12; // SequenceExample.feature_lists, map entry value
const TAG_BYTES_LIST = 0x0a;
const TAG_FLOAT_LIST = 0x12;
const TAG_INT64_LIST = 0x1a;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// The measuring pass records, in the order the writer needs them (parents before children), the
// size of every length-delimited message whose size is not obvious; the writing pass reads them
// back in the same order, so nothing is measured twice.
let sizes = new Float64Array(256);
let sizeCount = 0;
let sizeCursor = 0;
// The same for each map's sorted keys and each map value, so the writer neither sorts nor looks up again.
const keyOrders: SortedKeys[] = [];
let keyOrderCursor = 0;
const values: unknown[] = [];
let valueCursor = 0;

function reserveSize(): number {
  if (sizeCount === sizes.length) {
    const grown = new Float64Array(sizes.length * 2);
    grown.set(sizes);
    sizes = grown;
  }
  return sizeCount++;
}

function nextSize(): number {
  return sizes[sizeCursor++] as number;
}

function fieldSize(payload: number): number {
  return 1 + varintSize(payload) + payload;
}

function typeError(key: string, detail: string): TfpipeError {
  return new TfpipeError('FEATURE_TYPE', detail, { position: { field: key }, stage: 'serializeExamples' });
}

/** The encoded size of one Feature message; records its list payload size. */
function measureFeature(key: string, feature: Feature): number {
  if (typeof feature !== 'object' || feature === null)
    throw typeError(key, `a feature must be an object, got ${String(feature)}`);
  switch (feature.kind) {
    case 'bytes': {
      const slot = reserveSize();
      let list = 0;
      const values = feature.value;
      for (let index = 0; index < values.length; index++) {
        const value = values[index];
        if (!(value instanceof Uint8Array)) throw typeError(key, 'bytes feature values must be Uint8Arrays');
        list += fieldSize(value.length);
      }
      sizes[slot] = list;
      return fieldSize(list);
    }
    case 'float': {
      const count = feature.value.length;
      const list = count === 0 ? 0 : fieldSize(count * 4);
      return fieldSize(list);
    }
    case 'int64': {
      const slot = reserveSize();
      let packed = 0;
      const list = feature.value;
      for (let index = 0; index < list.length; index++) {
        const value = list[index];
        if (typeof value !== 'bigint')
          throw typeError(key, `int64 feature values must be bigints, got ${typeof value}`);
        // Through Number when it is exact and non-negative: bigint comparisons cost several times more.
        const number = Number(value);
        packed += number >= 0 && number <= MAX_SAFE ? varintSize(number) : int64VarintSize(value);
      }
      sizes[slot] = packed;
      return fieldSize(packed === 0 ? 0 : fieldSize(packed));
    }
    case 'none':
      return 0;
    default:
      throw typeError(key, `unknown feature kind ${JSON.stringify((feature as { kind: unknown }).kind)}`);
  }
}

function entrySize(keyLength: number, valueSize: number): number {
  return fieldSize(fieldSize(keyLength) + fieldSize(valueSize));
}

/** The encoded size of a Features message (map<string, Feature>); records each feature's size. */
function measureFeatures(features: Features): number {
  const order = sortedKeys(features);
  const { keys, bytes } = order;
  keyOrders.push(order);
  const slot = reserveSize();
  let total = 0;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const featureSlot = reserveSize();
    const feature = features[key] as Feature;
    values.push(feature);
    const size = measureFeature(key, feature);
    sizes[featureSlot] = size;
    total += entrySize((bytes[index] as Uint8Array).length, size);
  }
  sizes[slot] = total;
  return total;
}

function measureFeatureLists(lists: SequenceExample['featureLists']): number {
  const order = sortedKeys(lists);
  const { keys, bytes } = order;
  keyOrders.push(order);
  const slot = reserveSize();
  let total = 0;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const features = lists[key];
    values.push(features);
    if (!Array.isArray(features)) throw typeError(key, 'a feature list must be an array of features');
    const listSlot = reserveSize();
    let list = 0;
    for (const feature of features as readonly Feature[]) {
      const featureSlot = reserveSize();
      const size = measureFeature(key, feature);
      sizes[featureSlot] = size;
      list += fieldSize(size);
    }
    sizes[listSlot] = list;
    total += entrySize((bytes[index] as Uint8Array).length, list);
  }
  sizes[slot] = total;
  return total;
}

function measure(value: Example | SequenceExample): number {
  measured = undefined;
  sizeCount = 0;
  keyOrders.length = 0;
  values.length = 0;
  if (isSequence(value)) {
    return fieldSize(measureFeatures(value.context)) + fieldSize(measureFeatureLists(value.featureLists));
  }
  return fieldSize(measureFeatures(value.features));
}

/**
 * The exact number of bytes `value` encodes to.
 * @throws TfpipeError `FEATURE_TYPE` for a value of the wrong type or a lone-surrogate feature name
 */
export function encodedLength(value: Example | SequenceExample): number {
  if (value instanceof EncodedExample) return value.byteLength;
  const carried = encodedBytesOf(value);
  if (carried !== undefined) return carried.length;
  const length = measure(value);
  measured = value;
  measuredLength = length;
  return length;
}

// `encodedLength(value)` followed at once by `encodeInto(value, …)` (what a sink does) measures once:
// the measuring pass's results are still in place when the next value to encode is the one measured.
let measured: Example | SequenceExample | undefined;
let measuredLength = 0;

function isSequence(value: Example | SequenceExample): value is SequenceExample {
  return (value as Partial<SequenceExample>).featureLists !== undefined;
}

function writeHeader(target: Uint8Array, position: number, tag: number, payload: number): number {
  target[position] = tag;
  return writeVarint(target, position + 1, payload);
}

function writeFeature(
  target: Uint8Array,
  view: DataView,
  position: number,
  key: string,
  feature: Feature,
): number {
  switch (feature.kind) {
    case 'bytes': {
      position = writeHeader(target, position, TAG_BYTES_LIST, nextSize());
      const values = feature.value;
      for (let index = 0; index < values.length; index++) {
        const value = values[index] as Uint8Array;
        position = writeHeader(target, position, TAG_1, value.length);
        copyBytes(target, value, position);
        if (value.length >= KNOWN_CRC_MIN_BYTES) noteWrittenBytes(value, position);
        position += value.length;
      }
      return position;
    }
    case 'float': {
      const values = feature.value;
      const count = values.length;
      if (count === 0) return writeHeader(target, position, TAG_FLOAT_LIST, 0);
      position = writeHeader(target, position, TAG_FLOAT_LIST, fieldSize(count * 4));
      position = writeHeader(target, position, TAG_1, count * 4);
      if (values instanceof Float32Array && LITTLE_ENDIAN) {
        copyBytes(target, new Uint8Array(values.buffer, values.byteOffset, count * 4), position);
        return position + count * 4;
      }
      for (let index = 0; index < count; index++) {
        const value = values[index];
        if (typeof value !== 'number')
          throw typeError(key, `float feature values must be numbers, got ${typeof value}`);
        view.setFloat32(position, value, true);
        position += 4;
      }
      return position;
    }
    case 'int64': {
      const packed = nextSize();
      if (packed === 0) return writeHeader(target, position, TAG_INT64_LIST, 0);
      position = writeHeader(target, position, TAG_INT64_LIST, fieldSize(packed));
      position = writeHeader(target, position, TAG_1, packed);
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

function writeEntryHeader(target: Uint8Array, position: number, key: Uint8Array, valueSize: number): number {
  position = writeHeader(target, position, TAG_1, fieldSize(key.length) + fieldSize(valueSize));
  position = writeHeader(target, position, TAG_1, key.length);
  target.set(key, position);
  return writeHeader(target, position + key.length, TAG_2, valueSize);
}

function writeFeatures(target: Uint8Array, view: DataView, position: number, tag: number): number {
  const { keys, bytes } = keyOrders[keyOrderCursor++] as SortedKeys;
  position = writeHeader(target, position, tag, nextSize());
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    position = writeEntryHeader(target, position, bytes[index] as Uint8Array, nextSize());
    position = writeFeature(target, view, position, key, values[valueCursor++] as Feature);
  }
  return position;
}

function writeFeatureLists(target: Uint8Array, view: DataView, position: number): number {
  const { keys, bytes } = keyOrders[keyOrderCursor++] as SortedKeys;
  position = writeHeader(target, position, TAG_2, nextSize());
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    position = writeEntryHeader(target, position, bytes[index] as Uint8Array, nextSize());
    for (const feature of values[valueCursor++] as readonly Feature[]) {
      position = writeHeader(target, position, TAG_1, nextSize());
      position = writeFeature(target, view, position, key, feature);
    }
  }
  return position;
}

// The sink writes thousands of records into one buffer: keep its DataView.
let lastTarget: Uint8Array | undefined;
let lastView: DataView | undefined;

function viewOf(target: Uint8Array): DataView {
  if (target !== lastTarget || lastView === undefined) {
    lastView = new DataView(target.buffer, target.byteOffset, target.byteLength);
    lastTarget = target;
  }
  return lastView;
}

function write(value: Example | SequenceExample, target: Uint8Array, offset: number): number {
  sizeCursor = 0;
  keyOrderCursor = 0;
  valueCursor = 0;
  measured = undefined;
  const view = viewOf(target);
  // The order of the measuring pass, which `measure(value)` just ran, drives the writing.
  const position = writeFeatures(target, view, offset, TAG_1);
  return isSequence(value) ? writeFeatureLists(target, view, position) : position;
}

/**
 * Encodes an Example or SequenceExample straight into `target` at `offset` and returns the offset
 * after it. Map entries are written in UTF-8 byte order of their keys, so equal values give equal
 * bytes. Floats are narrowed to float32.
 * Called right after `encodedLength(value)` on the same object, it reuses that measurement (the
 * value must not change in between). An Example that carries its wire bytes (an `EncodedExample`
 * from `buildExamples`, or any object with bytes under `Symbol.for('tfpipe.encoded')`) is copied as is.
 * @param target - must have `encodedLength(value)` bytes of room from `offset`
 * @throws TfpipeError `FEATURE_TYPE` for a value of the wrong type, `INVALID_OPTION` when `target` is too small
 */
export function encodeInto(value: Example | SequenceExample, target: Uint8Array, offset: number): number {
  const carried = value instanceof EncodedExample ? undefined : encodedBytesOf(value);
  const length =
    value instanceof EncodedExample
      ? value.byteLength
      : carried !== undefined
        ? carried.length
        : value === measured
          ? measuredLength
          : measure(value);
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
  return write(value, target, offset);
}

/** Encodes an Example (deterministic: sorted keys) into a new, exactly sized Uint8Array. */
export function encodeExample(example: Example): Uint8Array {
  const carried = encodedBytesOf(example);
  if (carried !== undefined) return carried.slice();
  const target = new Uint8Array(measure(example));
  write(example, target, 0);
  return target;
}

/** Encodes a SequenceExample (deterministic: sorted keys) into a new, exactly sized Uint8Array. */
export function encodeSequenceExample(sequence: SequenceExample): Uint8Array {
  const target = new Uint8Array(measure(sequence));
  write(sequence, target, 0);
  return target;
}
