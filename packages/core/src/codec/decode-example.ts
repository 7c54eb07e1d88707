import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example, SequenceExample } from '../model/example.js';
import { ProtoReader } from './proto-reader.js';

import { expectWireType, finish, newBuilder, readFeature, WIRE_LENGTH_DELIMITED } from './read-feature.js';
import type { FeatureBuilder } from './read-feature.js';

// Keys are protobuf `string`s, which proto3 requires to be valid UTF-8 (protobuf's C++ and upb
// parsers reject invalid ones; protobufjs would silently turn them into U+FFFD). TensorFlow's
// fast parser (core/util/example_proto_fast_parsing.cc) compares keys as raw bytes and never checks.
// We reject them: a lossy decode would merge distinct keys and re-encode to different bytes.
// `ignoreBOM` keeps a leading U+FEFF, which is part of the key.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readKey(reader: ProtoReader, start: number, end: number): string {
  const bytes = reader.bytes;
  if (end - start <= 32) {
    let key = '';
    let index = start;
    for (; index < end; index++) {
      const byte = bytes[index] as number;
      if (byte >= 0x80) break;
      key += String.fromCharCode(byte);
    }
    if (index === end) return key;
  }
  try {
    return utf8.decode(bytes.subarray(start, end));
  } catch {
    throw reader.error(start, 'feature name is not valid UTF-8');
  }
}

/**
 * Reads one map entry `{1: key, 2: value}`; fields may come in any order or repeat (a repeated key
 * replaces, a repeated value merges), unknown fields are skipped.
 */
function readEntry<T>(
  reader: ProtoReader,
  end: number,
  readValue: (value: T | undefined, valueEnd: number) => T,
): [string, T | undefined] {
  let key = '';
  let value: T | undefined;
  while (reader.position < end) {
    const tagStart = reader.position;
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field !== 1 && field !== 2) {
      reader.skip(tag, tagStart, end);
      continue;
    }
    expectWireType(reader, tag, tagStart, WIRE_LENGTH_DELIMITED, field === 1 ? 'map key' : 'map value');
    const fieldEnd = reader.lengthDelimited(end);
    if (field === 1) key = readKey(reader, reader.position, fieldEnd);
    else value = readValue(value, fieldEnd);
    reader.position = fieldEnd;
  }
  return [key, value];
}

/**
 * Calls `visit` with the end of every occurrence of length-delimited field `field` before `end`,
 * skipping all other fields; `visit` reads the field's payload up to that end.
 */
function eachField(
  reader: ProtoReader,
  end: number,
  field: number,
  name: string,
  visit: (fieldEnd: number) => void,
): void {
  while (reader.position < end) {
    const tagStart = reader.position;
    const tag = reader.tag(end);
    if (tag >>> 3 !== field) {
      reader.skip(tag, tagStart, end);
      continue;
    }
    expectWireType(reader, tag, tagStart, WIRE_LENGTH_DELIMITED, name);
    visit(reader.lengthDelimited(end));
  }
}

/** Reads a Features payload (map<string, Feature>) into `features`; a key seen again replaces the earlier value. */
function readFeatures(reader: ProtoReader, features: Record<string, Feature>, end: number): void {
  const readValue = (builder: FeatureBuilder | undefined, valueEnd: number): FeatureBuilder => {
    const target = builder ?? newBuilder();
    readFeature(reader, target, valueEnd);
    return target;
  };
  eachField(reader, end, 1, 'Features.feature', (entryEnd) => {
    const [key, builder] = readEntry(reader, entryEnd, readValue);
    features[key] = finish(builder ?? newBuilder());
  });
}

/** Reads a FeatureLists payload (map<string, FeatureList>) into `lists`. */
function readFeatureLists(reader: ProtoReader, lists: Record<string, readonly Feature[]>, end: number): void {
  const readValue = (features: Feature[] | undefined, valueEnd: number): Feature[] => {
    const target = features ?? [];
    eachField(reader, valueEnd, 1, 'FeatureList.feature', (featureEnd) => {
      const builder = newBuilder();
      readFeature(reader, builder, featureEnd);
      target.push(finish(builder));
    });
    return target;
  };
  eachField(reader, end, 1, 'FeatureLists.feature_list', (entryEnd) => {
    const [key, features] = readEntry(reader, entryEnd, readValue);
    lists[key] = features ?? [];
  });
}

function readerFor(bytes: Uint8Array, messageName: string): ProtoReader {
  if (!(bytes instanceof Uint8Array)) {
    throw new TfpipeError('PROTO_DECODE', `malformed ${messageName}`, {
      position: { byteOffset: 0 },
      reason: `expected a Uint8Array, got ${bytes === null ? 'null' : typeof bytes}`,
    });
  }
  return new ProtoReader(bytes, messageName);
}

/**
 * Decodes a serialized `tf.train.Example`. Accepts everything protobuf's parsers accept for this
 * schema: packed and unpacked lists, several packed chunks, repeated message fields (merged), map keys
 * given twice (the last wins), unknown fields of every wire type (skipped) and a Feature with no
 * kind (`{ kind: 'none', value: [] }`). The feature map has a null prototype; bytes values are copies;
 * float values are `Float32Array`s; int64 values are exact `bigint`s.
 * @throws TfpipeError `PROTO_DECODE` with `position.byteOffset` (from the start of `bytes`) for
 *   malformed input: a truncated varint or field, a length past the end, a varint over 10 bytes,
 *   wire type 6 or 7, an unmatched group, a known field of the wrong wire type, a key that is not UTF-8.
 */
export function decodeExample(bytes: Uint8Array): Example {
  const reader = readerFor(bytes, 'Example');
  const features = Object.create(null) as Record<string, Feature>;
  const end = bytes.length;
  eachField(reader, end, 1, 'Example.features', (featuresEnd) => readFeatures(reader, features, featuresEnd));
  return { features: features };
}

/**
 * Decodes a serialized `tf.train.SequenceExample`, as tolerant as {@link decodeExample}. Example
 * bytes also decode as a SequenceExample (both keep their features at field 1): know the payload type.
 * @throws TfpipeError `PROTO_DECODE` with `position.byteOffset` for malformed input
 */
export function decodeSequenceExample(bytes: Uint8Array): SequenceExample {
  const reader = readerFor(bytes, 'SequenceExample');
  const context = Object.create(null) as Record<string, Feature>;
  const featureLists = Object.create(null) as Record<string, readonly Feature[]>;
  const end = bytes.length;
  while (reader.position < end) {
    const tagStart = reader.position;
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field !== 1 && field !== 2) {
      reader.skip(tag, tagStart, end);
      continue;
    }
    expectWireType(
      reader,
      tag,
      tagStart,
      WIRE_LENGTH_DELIMITED,
      field === 1 ? 'SequenceExample.context' : 'SequenceExample.feature_lists',
    );
    const fieldEnd = reader.lengthDelimited(end);
    if (field === 1) readFeatures(reader, context, fieldEnd);
    else readFeatureLists(reader, featureLists, fieldEnd);
  }
  return { context, featureLists };
}
