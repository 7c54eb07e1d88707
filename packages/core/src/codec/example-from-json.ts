import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example, SequenceExample } from '../model/example.js';
import { fromBase64 } from './base64.js';
import { floatFromJson } from './json-float.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INTEGER_TEXT = /^-?\d+$/;

function formError(path: string, reason: string): TfpipeError {
  return new TfpipeError('JSON_FORM', 'invalid JSON form', { position: { field: path }, reason });
}

/** The fields of a JSON object, each under its canonical (camelCase) name; snake_case names are accepted too. */
function fieldsOf(
  value: unknown,
  path: string,
  names: Readonly<Record<string, string>>,
): Map<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw formError(path, `expected an object, got ${describe(value)}`);
  }
  const fields = new Map<string, unknown>();
  for (const key of Object.keys(value)) {
    const name = Object.hasOwn(names, key) ? names[key] : undefined;
    if (name === undefined) throw formError(path === '' ? key : `${path}.${key}`, 'unknown field');
    if (fields.has(name)) throw formError(`${path}.${name}`, 'field given twice (camelCase and snake_case)');
    const field = (value as Record<string, unknown>)[key];
    // proto3 JSON: null stands for the field's default, i.e. absent.
    if (field !== null) fields.set(name, field);
  }
  return fields;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
    ? `${typeof value} ${value}`
    : typeof value;
}

function listValues(list: unknown, path: string): unknown[] {
  const values = fieldsOf(list, path, { value: 'value' }).get('value');
  if (values === undefined) return [];
  if (!Array.isArray(values)) throw formError(`${path}.value`, `expected an array, got ${describe(values)}`);
  return values;
}

function int64FromJson(value: unknown, path: string): bigint {
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    const result = BigInt(value);
    if (result < INT64_MIN || result > INT64_MAX)
      throw formError(path, `${value} is outside the int64 range`);
    return result;
  }
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) {
      throw formError(
        path,
        `${value} is beyond 2^53 and may already be rounded; write int64 values as strings`,
      );
    }
    return BigInt(value);
  }
  throw formError(path, `expected an int64 as a decimal string, got ${describe(value)}`);
}

const FEATURE_FIELDS = {
  bytesList: 'bytesList',
  bytes_list: 'bytesList',
  floatList: 'floatList',
  float_list: 'floatList',
  int64List: 'int64List',
  int64_list: 'int64List',
} as const;

function featureFromJson(value: unknown, path: string): Feature {
  const fields = fieldsOf(value, path, FEATURE_FIELDS);
  if (fields.size > 1) throw formError(path, `more than one kind set (${[...fields.keys()].join(', ')})`);
  const [kind, list] = [...fields][0] ?? [];
  const listPath = `${path}.${kind}`;
  switch (kind) {
    case 'bytesList':
      return {
        kind: 'bytes',
        value: listValues(list, listPath).map((item, index) => {
          const bytes = typeof item === 'string' ? fromBase64(item) : undefined;
          if (bytes === undefined)
            throw formError(`${listPath}.value[${index}]`, `expected base64, got ${describe(item)}`);
          return bytes;
        }),
      };
    case 'floatList': {
      const values = listValues(list, listPath);
      const floats = new Float32Array(values.length);
      values.forEach((item, index) => {
        const number = floatFromJson(item);
        if (number === undefined) {
          throw formError(
            `${listPath}.value[${index}]`,
            `expected a float32 number or "NaN"/"Infinity"/"-Infinity", got ${describe(item)}`,
          );
        }
        floats[index] = number;
      });
      return { kind: 'float', value: floats };
    }
    case 'int64List':
      return {
        kind: 'int64',
        value: listValues(list, listPath).map((item, index) =>
          int64FromJson(item, `${listPath}.value[${index}]`),
        ),
      };
    default:
      return { kind: 'none', value: [] };
  }
}

function mapEntries(value: unknown, path: string): [string, unknown][] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw formError(path, `expected an object, got ${describe(value)}`);
  }
  return Object.keys(value).map((key) => {
    const entry = (value as Record<string, unknown>)[key];
    if (entry === null) throw formError(`${path}.${key}`, 'a map value may not be null');
    return [key, entry];
  });
}

function featuresFromJson(value: unknown, path: string): Record<string, Feature> {
  const features = Object.create(null) as Record<string, Feature>;
  if (value === undefined) return features;
  const map = fieldsOf(value, path, { feature: 'feature' }).get('feature');
  for (const [key, feature] of mapEntries(map, `${path}.feature`)) {
    features[key] = featureFromJson(feature, `${path}.feature.${key}`);
  }
  return features;
}

function parseText(json: unknown): unknown {
  if (typeof json !== 'string') return json;
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new TfpipeError('JSON_PARSE', 'invalid JSON', { cause: error, reason: (error as Error).message });
  }
}

/**
 * An Example from its proto3 JSON form (an object, or JSON text), reading what protobuf's JSON
 * parsers read: camelCase or snake_case field names, int64 as decimal strings or safe-integer numbers,
 * floats as numbers or numeric strings or `"NaN"`/`"Infinity"`/`"-Infinity"`, bytes as standard or
 * URL-safe base64 with or without padding, `null` for an absent field. Unknown fields are errors.
 * @throws TfpipeError `JSON_FORM` with `position.field` naming the path, e.g.
 *   `features.feature.age.int64List.value[2]`; `JSON_PARSE` for text that is not JSON
 */
export function exampleFromJson(json: unknown): Example {
  const fields = fieldsOf(parseText(json), '', { features: 'features' });
  return { features: featuresFromJson(fields.get('features'), 'features') };
}

/**
 * A SequenceExample from its proto3 JSON form (`context`, `featureLists` / `feature_lists`,
 * `featureList` / `feature_list`), read like {@link exampleFromJson}.
 * @throws TfpipeError `JSON_FORM` with `position.field` naming the path; `JSON_PARSE` for text that is not JSON
 */
export function sequenceExampleFromJson(json: unknown): SequenceExample {
  const fields = fieldsOf(parseText(json), '', {
    context: 'context',
    featureLists: 'featureLists',
    feature_lists: 'featureLists',
  });
  const featureLists = Object.create(null) as Record<string, readonly Feature[]>;
  const lists = fields.get('featureLists');
  if (lists !== undefined) {
    const map = fieldsOf(lists, 'featureLists', {
      featureList: 'featureList',
      feature_list: 'featureList',
    }).get('featureList');
    for (const [key, list] of mapEntries(map, 'featureLists.featureList')) {
      const listPath = `featureLists.featureList.${key}`;
      const features = fieldsOf(list, listPath, { feature: 'feature' }).get('feature') ?? [];
      if (!Array.isArray(features))
        throw formError(`${listPath}.feature`, `expected an array, got ${describe(features)}`);
      featureLists[key] = features.map((feature, index) =>
        featureFromJson(feature, `${listPath}.feature[${index}]`),
      );
    }
  }
  return { context: featuresFromJson(fields.get('context'), 'context'), featureLists };
}
