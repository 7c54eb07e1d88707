import type { Feature } from '../model/feature.js';
import type { Example, Features, SequenceExample } from '../model/example.js';
import { toBase64 } from './base64.js';
import { sortedKeys } from './feature-keys.js';
import { floatToJson } from './json-float.js';
import { jsonText } from './json-text.js';

/** The proto3 JSON form of a `tf.train.Feature`; `{}` when no kind is set. */
export interface FeatureJson {
  /** Standard base64 strings. */
  readonly bytesList?: { readonly value?: readonly string[] };
  /** Numbers, or `"NaN"`, `"Infinity"`, `"-Infinity"` (parsers also accept numeric strings). */
  readonly floatList?: { readonly value?: readonly (number | string)[] };
  /** Decimal strings (parsers also accept safe-integer numbers). */
  readonly int64List?: { readonly value?: readonly (string | number)[] };
}

/** The proto3 JSON form of a `tf.train.Features`. */
export interface FeaturesJson {
  readonly feature?: Readonly<Record<string, FeatureJson>>;
}

/** The proto3 JSON form of a `tf.train.Example`: `{"features":{"feature":{"age":{"int64List":{"value":["42"]}}}}}`. */
export interface ExampleJson {
  readonly features?: FeaturesJson;
}

/** The proto3 JSON form of a `tf.train.SequenceExample`. */
export interface SequenceExampleJson {
  readonly context?: FeaturesJson;
  readonly featureLists?: {
    readonly featureList?: Readonly<Record<string, { readonly feature?: readonly FeatureJson[] }>>;
  };
}

function featureToJson(feature: Feature): FeatureJson {
  // The printer leaves out empty repeated fields, so an empty list prints as `{}` inside its kind.
  switch (feature.kind) {
    case 'bytes':
      return { bytesList: feature.value.length === 0 ? {} : { value: feature.value.map(toBase64) } };
    case 'float':
      return {
        floatList: feature.value.length === 0 ? {} : { value: Array.from(feature.value, floatToJson) },
      };
    case 'int64':
      return { int64List: feature.value.length === 0 ? {} : { value: feature.value.map(String) } };
    default:
      return {};
  }
}

// Null-prototype maps, so that a feature named `__proto__` is an ordinary key.
function mapOf<T>(record: object, convert: (key: string) => T): Record<string, T> | undefined {
  const { keys } = sortedKeys(record);
  if (keys.length === 0) return undefined;
  const map = Object.create(null) as Record<string, T>;
  for (const key of keys) map[key] = convert(key);
  return map;
}

function featuresToJson(features: Features): FeaturesJson {
  const feature = mapOf(features, (key) => featureToJson(features[key] as Feature));
  return feature === undefined ? {} : { feature };
}

/**
 * The proto3 JSON form of an Example, as protobuf's JSON printers write it: camelCase field names,
 * int64 as decimal strings, bytes as padded standard base64, floats as the shortest number (6 to 9
 * significant digits) that reads back to the same float32, non-finite floats as `"NaN"`,
 * `"Infinity"`, `"-Infinity"`, empty lists and maps left out, keys in UTF-8 byte order (JavaScript
 * still lists integer-like keys first). A float `-0` stays `-0`. For text, use
 * {@link exampleToJsonText}: `JSON.stringify` writes `-0` as `0`.
 */
export function exampleToJson(example: Example): ExampleJson {
  return { features: featuresToJson(example.features) };
}

/**
 * The proto3 JSON form of a SequenceExample: `{"context":{"feature":{…}},"featureLists":{"featureList":{"name":{"feature":[…]}}}}`,
 * written as {@link exampleToJson} writes an Example. For text, use {@link sequenceExampleToJsonText}.
 */
export function sequenceExampleToJson(sequence: SequenceExample): SequenceExampleJson {
  const lists = sequence.featureLists;
  const featureList = mapOf(lists, (key) => {
    const features = lists[key] as readonly Feature[];
    return features.length === 0 ? {} : { feature: features.map(featureToJson) };
  });
  return {
    context: featuresToJson(sequence.context),
    featureLists: featureList === undefined ? {} : { featureList },
  };
}

/**
 * The proto3 JSON form of an Example as one line of JSON text, as protobuf's printers write it: like
 * `JSON.stringify(exampleToJson(example))` but a float `-0` is written `-0` (not `0`), so that
 * `exampleFromJson` gives back the same bytes.
 */
export function exampleToJsonText(example: Example): string {
  return jsonText(exampleToJson(example));
}

/** The proto3 JSON form of a SequenceExample as one line of JSON text, a float `-0` written `-0`. */
export function sequenceExampleToJsonText(sequence: SequenceExample): string {
  return jsonText(sequenceExampleToJson(sequence));
}
