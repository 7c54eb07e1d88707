/**
 * Test helpers for the codec (not exported from the package): fast-check arbitraries for Examples and
 * SequenceExamples, and a reference encoder built on protobufjs.
 */
import fc from 'fast-check';
import protobuf from 'protobufjs/light.js';
import type { Feature } from '../model/feature.js';
import type { Example, SequenceExample } from '../model/example.js';
import { tfProto } from './tf-proto.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const utf8 = new TextEncoder();

export const keyArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc
    .string({ unit: 'binary', maxLength: 6 })
    .filter((key) => (key as unknown as { isWellFormed(): boolean }).isWellFormed()),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    '',
    'age',
    'image/encoded',
    '\uFFFF',
    '\uE000',
    '😀',
    '10',
    '9',
    '\uFEFFbom',
  ),
);

const floatArbitrary: fc.Arbitrary<number> = fc.oneof(
  fc.float(),
  fc.double(),
  fc.constantFrom(
    NaN,
    -0,
    0,
    Infinity,
    -Infinity,
    1e-45,
    1.1754942e-38,
    3.4028234663852886e38,
    0.1,
    1.5,
    -2.75,
  ),
);

const int64Arbitrary: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  fc.integer().map(BigInt),
  fc.constantFrom(
    INT64_MIN,
    INT64_MAX,
    -1n,
    0n,
    1n,
    127n,
    128n,
    2n ** 31n,
    -(2n ** 31n),
    2n ** 53n,
    -(2n ** 53n) - 1n,
  ),
);

export const featureArbitrary: fc.Arbitrary<Feature> = fc.oneof(
  fc
    .array(fc.uint8Array({ maxLength: 8 }), { maxLength: 3 })
    .map((value): Feature => ({ kind: 'bytes', value })),
  fc.array(floatArbitrary, { maxLength: 5 }).map((value): Feature => ({ kind: 'float', value })),
  fc.array(int64Arbitrary, { maxLength: 5 }).map((value): Feature => ({ kind: 'int64', value })),
  fc.constant<Feature>({ kind: 'none', value: [] }),
);

function nullPrototypeMap<T>(entries: readonly (readonly [string, T])[]): Record<string, T> {
  const map = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) map[key] = value;
  return map;
}

export const exampleArbitrary: fc.Arbitrary<Example> = fc
  .array(fc.tuple(keyArbitrary, featureArbitrary), { maxLength: 6 })
  .map((entries) => ({ features: nullPrototypeMap(entries) }));

export const sequenceExampleArbitrary: fc.Arbitrary<SequenceExample> = fc
  .tuple(
    fc.array(fc.tuple(keyArbitrary, featureArbitrary), { maxLength: 4 }),
    fc.array(fc.tuple(keyArbitrary, fc.array(featureArbitrary, { maxLength: 3 })), { maxLength: 4 }),
  )
  .map(([context, lists]) => ({ context: nullPrototypeMap(context), featureLists: nullPrototypeMap(lists) }));

/** What decoding gives back: floats narrowed to float32. */
export function narrowFeature(feature: Feature): Feature {
  return feature.kind === 'float' ? { kind: 'float', value: Float32Array.from(feature.value) } : feature;
}

/** A plain, comparable view of a Feature in protobufjs's `toObject({ longs: String, bytes: String })` shape. */
export function plainFeature(feature: Feature): Record<string, unknown> {
  const list = (values: unknown[]): Record<string, unknown> => (values.length === 0 ? {} : { value: values });
  switch (feature.kind) {
    case 'bytes':
      return {
        bytesList: list(
          feature.value.map((value) => btoa(Array.from(value, (byte) => String.fromCharCode(byte)).join(''))),
        ),
      };
    case 'float':
      return { floatList: list(Array.from(feature.value, Math.fround)) };
    case 'int64':
      return { int64List: list(feature.value.map(String)) };
    default:
      return {};
  }
}

export function plainFeatures(features: Readonly<Record<string, Feature>>): Record<string, unknown> {
  const keys = Object.keys(features);
  if (keys.length === 0) return {};
  const feature = Object.create(null) as Record<string, unknown>;
  for (const key of keys) feature[key] = plainFeature(features[key] as Feature);
  return { feature };
}

/** protobufjs input for one Feature (int64s as decimal strings, which protobufjs parses with `long`). */
function protoFeature(feature: Feature): Record<string, unknown> {
  switch (feature.kind) {
    case 'bytes':
      return { bytesList: { value: feature.value } };
    case 'float':
      return { floatList: { value: Array.from(feature.value) } };
    case 'int64':
      return { int64List: { value: feature.value.map(String) } };
    default:
      return {};
  }
}

function compareUtf8(left: string, right: string): number {
  const a = utf8.encode(left);
  const b = utf8.encode(right);
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    if (a[index] !== b[index]) return (a[index] as number) - (b[index] as number);
  }
  return a.length - b.length;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const output = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    output.set(chunk, offset);
    offset += chunk.length;
  }
  return output;
}

/**
 * protobufjs's encoding of a map with its entries in UTF-8 key order. protobufjs writes a map in
 * `Object.keys` order, which lists integer-like keys first whatever the insertion order, so each entry
 * is encoded on its own (a map field is just its entries, concatenated).
 */
function referenceMap<T>(
  record: Readonly<Record<string, T>>,
  encodeEntry: (key: string, value: T) => Uint8Array,
): Uint8Array {
  return concat(
    Object.keys(record)
      .sort(compareUtf8)
      .map((key) => encodeEntry(key, record[key] as T)),
  );
}

function referenceFeatures(features: Readonly<Record<string, Feature>>): Uint8Array {
  const { Features } = tfProto();
  return referenceMap(features, (key, feature) =>
    Features.encode(Features.fromObject({ feature: { [key]: protoFeature(feature) } })).finish(),
  );
}

function lengthDelimited(fieldNumber: number, payload: Uint8Array): Uint8Array {
  // protobufjs's own Writer frames the field, so no byte here comes from our encoder.
  return protobuf.Writer.create()
    .uint32((fieldNumber << 3) | 2)
    .bytes(payload)
    .finish();
}

/** protobufjs's bytes for an Example, map entries in UTF-8 key order. */
export function referenceEncodeExample(example: Example): Uint8Array {
  return lengthDelimited(1, referenceFeatures(example.features));
}

/** protobufjs's bytes for a SequenceExample, map entries in UTF-8 key order. */
export function referenceEncodeSequenceExample(sequence: SequenceExample): Uint8Array {
  const { FeatureLists } = tfProto();
  const lists = referenceMap(sequence.featureLists, (key, features) =>
    FeatureLists.encode(
      FeatureLists.fromObject({ featureList: { [key]: { feature: features.map(protoFeature) } } }),
    ).finish(),
  );
  return concat([lengthDelimited(1, referenceFeatures(sequence.context)), lengthDelimited(2, lists)]);
}
