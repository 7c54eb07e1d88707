// Reading one tf.train.Feature (and its BytesList, FloatList or Int64List) from wire bytes.
import type { Feature } from '../model/feature.js';
import type { ProtoReader } from './proto-reader.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const WIRE_VARINT = 0;
/** Wire type 2: a length-delimited field. */
export const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

/**
 * What decoded values take in memory, in bytes, as measured on V8 (Node.js 20, x64) with
 * `process.memoryUsage()`: a bytes value is a Uint8Array copy (~200 bytes of objects, even empty),
 * an int64 a heap bigint in an array slot, a float 4 bytes of a Float32Array, a map entry its key
 * string, Feature object and builder. The wire form of each can be 1 or 2 bytes, so without a
 * budget one record of 48 MB decodes into gigabytes.
 */
export const DECODED_COST = { entry: 320, step: 200, bytesValue: 200, int64: 32, float: 4 } as const;

/** A Feature being assembled; repeated occurrences of its list merge, a different kind replaces it (oneof). */
export interface FeatureBuilder {
  kind: Feature['kind'];
  bytes: Uint8Array[];
  floats: Float32Array[];
  pendingFloats: number[];
  ints: bigint[];
}

/**
 * A plain Uint8Array copy of a range. Not `bytes.slice`: on a Node.js Buffer (a Uint8Array subclass)
 * `slice` returns a view into Buffer's shared pool, not a copy.
 */
function copyRange(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start).slice();
}

/** An empty builder (a Feature with no kind until a list arrives). */
export function newBuilder(): FeatureBuilder {
  return { kind: 'none', bytes: [], floats: [], pendingFloats: [], ints: [] };
}

function flushFloats(builder: FeatureBuilder): void {
  if (builder.pendingFloats.length > 0) {
    builder.floats.push(Float32Array.from(builder.pendingFloats));
    builder.pendingFloats = [];
  }
}

/** The Feature a builder holds. */
export function finish(builder: FeatureBuilder): Feature {
  switch (builder.kind) {
    case 'bytes':
      return { kind: 'bytes', value: builder.bytes };
    case 'int64':
      return { kind: 'int64', value: builder.ints };
    case 'float': {
      flushFloats(builder);
      const parts = builder.floats;
      if (parts.length === 1) return { kind: 'float', value: parts[0] as Float32Array };
      let length = 0;
      for (const part of parts) length += part.length;
      const value = new Float32Array(length);
      let offset = 0;
      for (const part of parts) {
        value.set(part, offset);
        offset += part.length;
      }
      return { kind: 'float', value };
    }
    default:
      return { kind: 'none', value: [] };
  }
}

/** Fails unless the tag just read has the wire type the schema gives the field. */
export function expectWireType(
  reader: ProtoReader,
  tag: number,
  tagStart: number,
  expected: number,
  field: string,
): void {
  if ((tag & 7) !== expected) {
    throw reader.error(tagStart, `${field} has wire type ${tag & 7}, expected ${expected}`);
  }
}

function readPackedFloats(reader: ProtoReader, builder: FeatureBuilder, start: number, end: number): void {
  if ((end - start) % 4 !== 0)
    throw reader.error(start, `packed floats take ${end - start} bytes, not a multiple of 4`);
  flushFloats(builder);
  const copy = copyRange(reader.bytes, start, end);
  if (LITTLE_ENDIAN) {
    builder.floats.push(new Float32Array(copy.buffer, 0, copy.length / 4));
  } else {
    const view = new DataView(copy.buffer);
    const values = new Float32Array(copy.length / 4);
    for (let index = 0; index < values.length; index++) values[index] = view.getFloat32(index * 4, true);
    builder.floats.push(values);
  }
}

/** Reads a BytesList, FloatList or Int64List payload into `builder`. */
function readList(reader: ProtoReader, builder: FeatureBuilder, end: number): void {
  const bytes = reader.bytes;
  while (reader.position < end) {
    const tagStart = reader.position;
    const tag = reader.tag(end);
    if (tag >>> 3 !== 1) {
      reader.skip(tag, tagStart, end);
      continue;
    }
    const wireType = tag & 7;
    if (builder.kind === 'bytes') {
      expectWireType(reader, tag, tagStart, WIRE_LENGTH_DELIMITED, 'BytesList.value');
      const valueEnd = reader.lengthDelimited(end);
      reader.charge(DECODED_COST.bytesValue + valueEnd - reader.position, tagStart);
      builder.bytes.push(copyRange(bytes, reader.position, valueEnd));
      reader.position = valueEnd;
    } else if (builder.kind === 'float') {
      if (wireType === WIRE_FIXED32) {
        if (end - reader.position < 4) throw reader.error(tagStart, 'truncated float');
        reader.charge(DECODED_COST.float, tagStart);
        const view = new DataView(bytes.buffer, bytes.byteOffset + reader.position, 4);
        builder.pendingFloats.push(view.getFloat32(0, true));
        reader.position += 4;
      } else {
        expectWireType(reader, tag, tagStart, WIRE_LENGTH_DELIMITED, 'FloatList.value');
        const valueEnd = reader.lengthDelimited(end);
        reader.charge(valueEnd - reader.position, tagStart);
        readPackedFloats(reader, builder, reader.position, valueEnd);
        reader.position = valueEnd;
      }
    } else if (wireType === WIRE_VARINT) {
      reader.charge(DECODED_COST.int64, tagStart);
      builder.ints.push(reader.bigint64(end));
    } else {
      expectWireType(reader, tag, tagStart, WIRE_LENGTH_DELIMITED, 'Int64List.value');
      const valueEnd = reader.lengthDelimited(end);
      while (reader.position < valueEnd) {
        reader.charge(DECODED_COST.int64, reader.position);
        builder.ints.push(reader.bigint64(valueEnd));
      }
    }
  }
}

const KINDS: readonly Feature['kind'][] = ['none', 'bytes', 'float', 'int64'];

/** Reads a Feature payload into `builder` (merging into what it already holds). */
export function readFeature(reader: ProtoReader, builder: FeatureBuilder, end: number): void {
  while (reader.position < end) {
    const tagStart = reader.position;
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field < 1 || field > 3) {
      reader.skip(tag, tagStart, end);
      continue;
    }
    expectWireType(reader, tag, tagStart, WIRE_LENGTH_DELIMITED, `Feature field ${field}`);
    const listEnd = reader.lengthDelimited(end);
    const kind = KINDS[field] as Feature['kind'];
    if (builder.kind !== kind) Object.assign(builder, newBuilder(), { kind });
    readList(reader, builder, listEnd);
  }
}
