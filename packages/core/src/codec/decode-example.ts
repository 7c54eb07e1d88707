import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example, SequenceExample } from '../model/example.js';
import { ProtoReader } from './proto-reader.js';

import {
  DECODED_COST,
  expectWireType,
  finish,
  newBuilder,
  readFeature,
  WIRE_LENGTH_DELIMITED,
} from './read-feature.js';
import type { FeatureBuilder } from './read-feature.js';

// Keys are protobuf `string`s, which proto3 requires to be valid UTF-8 (protobuf's C++ and upb
// parsers reject invalid ones; protobufjs would silently turn them into U+FFFD). TensorFlow's
// fast parser (core/util/example_proto_fast_parsing.cc) compares keys as raw bytes and never checks.
// We reject them: a lossy decode would merge distinct keys and re-encode to different bytes.
// `ignoreBOM` keeps a leading U+FEFF, which is part of the key.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readKey(reader: ProtoReader, start: number, end: number): string {
  reader.charge(end - start, start);
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
    reader.charge(DECODED_COST.entry, reader.position);
    const [key, builder] = readEntry(reader, entryEnd, readValue);
    features[key] = finish(builder ?? newBuilder());
  });
}

/** Reads a FeatureLists payload (map<string, FeatureList>) into `lists`. */
function readFeatureLists(reader: ProtoReader, lists: Record<string, readonly Feature[]>, end: number): void {
  const readValue = (features: Feature[] | undefined, valueEnd: number): Feature[] => {
    const target = features ?? [];
    eachField(reader, valueEnd, 1, 'FeatureList.feature', (featureEnd) => {
      reader.charge(DECODED_COST.step, reader.position);
      const builder = newBuilder();
      readFeature(reader, builder, featureEnd);
      target.push(finish(builder));
    });
    return target;
  };
  eachField(reader, end, 1, 'FeatureLists.feature_list', (entryEnd) => {
    reader.charge(DECODED_COST.entry, reader.position);
    const [key, features] = readEntry(reader, entryEnd, readValue);
    lists[key] = features ?? [];
  });
}

/** Options of {@link decodeExample} and {@link decodeSequenceExample}. */
export interface DecodeOptions {
  /**
   * The most memory, in bytes, the decoded record may take, as estimated before each value is
   * allocated (about 200 bytes per bytes value plus its length, 32 per int64, 4 per float, 320 per
   * feature plus its name). A record over it is a `RECORD_TOO_LARGE` error, never an out-of-memory
   * crash: a record of 1- or 2-byte values otherwise decodes into 30 to 100 times its size.
   * `Infinity` turns the check off.
   * @default the larger of 128 MiB and 4 × the record's length
   */
  readonly maxDecodedBytes?: number;
}

/** The default decoded-memory floor of {@link DecodeOptions.maxDecodedBytes}, in bytes (128 MiB). */
export const MIN_DECODED_BYTES = 128 * 1024 * 1024;
/** The default decoded-memory limit as a multiple of the record's length (see {@link DecodeOptions.maxDecodedBytes}). */
export const DECODED_BYTES_PER_RECORD_BYTE = 4;

/**
 * Checks {@link DecodeOptions.maxDecodedBytes}, for stages that take it, when they are created.
 * @throws TfpipeError `INVALID_OPTION` (fatal) unless it is absent, a whole number of bytes or `Infinity`
 */
export function checkDecodeOptions(options: DecodeOptions, stage?: string): void {
  const limit = options.maxDecodedBytes;
  if (limit !== undefined && !(limit === Infinity || (Number.isSafeInteger(limit) && limit >= 0))) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `maxDecodedBytes must be a whole number of bytes or Infinity, got ${String(limit)}`,
      stage === undefined ? { fatal: true } : { fatal: true, stage },
    );
  }
}

function readerFor(bytes: Uint8Array, messageName: string, options: DecodeOptions): ProtoReader {
  if (!(bytes instanceof Uint8Array)) {
    throw new TfpipeError('PROTO_DECODE', `malformed ${messageName}`, {
      position: { byteOffset: 0 },
      reason: `expected a Uint8Array, got ${bytes === null ? 'null' : typeof bytes}`,
    });
  }
  checkDecodeOptions(options);
  const limit = options.maxDecodedBytes;
  const maxDecodedBytes = limit ?? Math.max(MIN_DECODED_BYTES, DECODED_BYTES_PER_RECORD_BYTE * bytes.length);
  return new ProtoReader(bytes, messageName, maxDecodedBytes);
}

/**
 * Decodes a serialized `tf.train.Example`. Accepts everything protobuf's parsers accept for this
 * schema: packed and unpacked lists, several packed chunks, repeated message fields (merged), map keys
 * given twice (the last wins), unknown fields of every wire type (skipped) and a Feature with no
 * kind (`{ kind: 'none', value: [] }`). The feature map has a null prototype; bytes values are copies;
 * float values are `Float32Array`s; int64 values are exact `bigint`s.
 * @throws TfpipeError `PROTO_DECODE` with `position.byteOffset` (from the start of `bytes`) for
 *   malformed input: a truncated varint or field, a length past the end, a varint over 10 bytes,
 *   wire type 6 or 7, an unmatched group, a known field of the wrong wire type, a key that is not UTF-8;
 *   `RECORD_TOO_LARGE` with `position.byteOffset` of the first value over `options.maxDecodedBytes`;
 *   `INVALID_OPTION` for a bad `maxDecodedBytes`
 */
export function decodeExample(bytes: Uint8Array, options: DecodeOptions = {}): Example {
  const reader = readerFor(bytes, 'Example', options);
  const features = Object.create(null) as Record<string, Feature>;
  const end = bytes.length;
  eachField(reader, end, 1, 'Example.features', (featuresEnd) => readFeatures(reader, features, featuresEnd));
  return { features: features };
}

/**
 * Decodes a serialized `tf.train.SequenceExample`, as tolerant as {@link decodeExample}. Example
 * bytes also decode as a SequenceExample (both keep their features at field 1): know the payload type.
 * @throws TfpipeError `PROTO_DECODE` with `position.byteOffset` for malformed input;
 *   `RECORD_TOO_LARGE` past `options.maxDecodedBytes`
 */
export function decodeSequenceExample(bytes: Uint8Array, options: DecodeOptions = {}): SequenceExample {
  const reader = readerFor(bytes, 'SequenceExample', options);
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
