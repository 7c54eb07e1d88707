import { TfpipeError } from '@tfpipe/core';
import type { Dtype } from './dtype.js';
import { fixedLen, fixedLenSequence, ragged, sparse, varLen } from './feature-spec.js';
import type { ExampleParseSpec, FeatureSpec, FixedLenSpec } from './feature-spec.js';
import type { RaggedPartition } from './ragged-partition.js';
import type { SequenceParseSpec } from '../parse/sequence/parse-sequence-example.js';

/**
 * One default value in a spec file: a number, an integer as a decimal string (exact beyond 2^53) for
 * the integer dtypes, text (UTF-8) for `'string'`, or nested arrays of them, read row-major.
 */
export type DefaultJson = number | string | readonly DefaultJson[];

/** One ragged partition in a spec file: `{ "type": "rowSplits", "key": "k" }` or `{ "type": "uniformRowLength", "length": 3 }`. */
export type RaggedPartitionJson = RaggedPartition;

/** The JSON form of one feature spec: the factory's name as `type`, its arguments as fields. */
export type FeatureSpecJson =
  | {
      readonly type: 'fixedLen';
      readonly shape: readonly number[];
      readonly dtype: Dtype;
      /** Without it the feature is required. */
      readonly default?: DefaultJson;
    }
  | { readonly type: 'varLen'; readonly dtype: Dtype }
  | {
      readonly type: 'sparse';
      readonly indexKey: string | readonly string[];
      readonly valueKey: string;
      readonly dtype: Dtype;
      readonly size: number | readonly number[];
      /** @default false */
      readonly alreadySorted?: boolean;
    }
  | {
      readonly type: 'ragged';
      readonly dtype: Dtype;
      /** @default the feature's own name */
      readonly valueKey?: string;
      /** @default [] */
      readonly partitions?: readonly RaggedPartitionJson[];
    }
  | {
      readonly type: 'fixedLenSequence';
      readonly shape: readonly number[];
      readonly dtype: Dtype;
      /** @default false */
      readonly allowMissing?: boolean;
      /** The padding value (one value). @default 0, 0n or empty */
      readonly default?: DefaultJson;
    };

/**
 * A spec file (`tfpipe head --spec`, `tfpipe export --spec`): the `features` of an Example (or the
 * context features of a SequenceExample) and, for SequenceExamples only, the `featureLists`.
 */
export interface SpecJson {
  /** Output name → feature spec, as `parseExample` takes it. */
  readonly features: Readonly<Record<string, FeatureSpecJson>>;
  /** SequenceExample feature lists: `fixedLenSequence`, `varLen` or `ragged` (no partitions) specs. */
  readonly featureLists?: Readonly<Record<string, FeatureSpecJson>>;
}

/** A spec file read into the specs `parseExample` / `parseSequenceExample` take. */
export interface ParsedSpecJson {
  /** The Example spec, or the SequenceExample context spec. */
  readonly features: ExampleParseSpec;
  /** The feature-list spec, when the file has `featureLists`. */
  readonly featureLists: SequenceParseSpec | undefined;
}

const STAGE = 'spec';
const DTYPES = ['int64', 'int32', 'number', 'float32', 'string'] as const;
const FIELDS: Readonly<Record<FeatureSpecJson['type'], readonly string[]>> = {
  fixedLen: ['type', 'shape', 'dtype', 'default'],
  varLen: ['type', 'dtype'],
  sparse: ['type', 'indexKey', 'valueKey', 'dtype', 'size', 'alreadySorted'],
  ragged: ['type', 'dtype', 'valueKey', 'partitions'],
  fixedLenSequence: ['type', 'shape', 'dtype', 'allowMissing', 'default'],
};
/** The most values one record's fixed-shape feature may hold: the length limit of a typed array, 2^31 - 1. */
const MAX_VALUES = 2 ** 31 - 1;
const PARTITIONS = ['rowSplits', 'rowLengths', 'rowStarts', 'rowLimits', 'valueRowIds', 'uniformRowLength'];

/** `$.features.label`, `$.features["image/encoded"].shape[0]`: a JSON path a reader can follow. */
export function jsonPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

class Checker {
  constructor(readonly file: string | undefined) {}

  fail(path: string, detail: string, feature?: string): never {
    const position = { ...(this.file === undefined ? {} : { file: this.file }), field: feature ?? path };
    throw new TfpipeError('INVALID_OPTION', `${path}: ${detail}`, { stage: STAGE, fatal: true, position });
  }

  object(value: unknown, path: string, feature?: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(path, `expected an object, got ${describe(value)}`, feature);
    return value as Record<string, unknown>;
  }

  fields(value: Record<string, unknown>, allowed: readonly string[], path: string, feature?: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.fail(jsonPath(path, key), `unknown field (expected one of ${allowed.join(', ')})`, feature);
    }
  }

  string(value: unknown, path: string, feature: string): string {
    if (typeof value !== 'string' || value === '')
      this.fail(path, `expected a feature name, got ${describe(value)}`, feature);
    return value;
  }

  dimensions(value: unknown, path: string, feature: string, scalar: boolean): number[] {
    if (scalar && typeof value === 'number') return [this.dimension(value, path, feature)];
    if (!Array.isArray(value))
      this.fail(path, `expected an array of dimensions like [] or [3], got ${describe(value)}`, feature);
    return value.map((dimension, index) => this.dimension(dimension, jsonPath(path, index), feature));
  }

  /** A fixedLen's or a sequence step's shape: its values per record must fit one typed array. */
  shape(value: unknown, path: string, feature: string): number[] {
    const shape = this.dimensions(value, path, feature, false);
    const count = shape.reduce((product, dimension) => product * dimension, 1);
    if (count > MAX_VALUES)
      this.fail(
        path,
        `holds ${count} values per record, more than a tensor can hold (${MAX_VALUES})`,
        feature,
      );
    return shape;
  }

  dimension(value: unknown, path: string, feature: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
      this.fail(path, `expected a positive whole number, got ${describe(value)}`, feature);
    return value;
  }

  dtype(value: unknown, path: string, feature: string): Dtype {
    if (typeof value !== 'string' || !(DTYPES as readonly string[]).includes(value))
      this.fail(path, `expected one of ${DTYPES.join(', ')}, got ${describe(value)}`, feature);
    return value as Dtype;
  }

  boolean(value: unknown, path: string, feature: string): boolean | undefined {
    if (value !== undefined && typeof value !== 'boolean')
      this.fail(path, `expected true or false, got ${describe(value)}`, feature);
    return value;
  }

  defaultValue(value: unknown, dtype: Dtype, path: string, feature: string): unknown {
    if (Array.isArray(value))
      return value.map((item, index) => this.defaultValue(item, dtype, jsonPath(path, index), feature));
    if (dtype === 'string') {
      if (typeof value !== 'string') this.fail(path, `expected text, got ${describe(value)}`, feature);
      return value;
    }
    if (dtype === 'float32') {
      if (typeof value !== 'number') this.fail(path, `expected a number, got ${describe(value)}`, feature);
      return value;
    }
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      this.fail(
        path,
        `expected an integer (a whole number within ±(2^53 - 1), or a decimal string), got ${describe(value)}`,
        feature,
      );
    return value;
  }

  partition(value: unknown, path: string, feature: string): RaggedPartition {
    const item = this.object(value, path, feature);
    const type = item.type;
    if (typeof type !== 'string' || !PARTITIONS.includes(type))
      this.fail(
        jsonPath(path, 'type'),
        `expected one of ${PARTITIONS.join(', ')}, got ${describe(type)}`,
        feature,
      );
    if (type === 'uniformRowLength') {
      this.fields(item, ['type', 'length'], path, feature);
      return { type, length: this.dimension(item.length, jsonPath(path, 'length'), feature) };
    }
    this.fields(item, ['type', 'key'], path, feature);
    return {
      type: type as Exclude<RaggedPartition['type'], 'uniformRowLength'>,
      key: this.string(item.key, jsonPath(path, 'key'), feature),
    };
  }

  feature(value: unknown, path: string, feature: string): FeatureSpec {
    const item = this.object(value, path, feature);
    const type = item.type;
    if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type))
      this.fail(
        jsonPath(path, 'type'),
        `expected one of ${Object.keys(FIELDS).join(', ')}, got ${describe(type)}`,
        feature,
      );
    this.fields(item, FIELDS[type as FeatureSpecJson['type']], path, feature);
    const at = (key: string): string => jsonPath(path, key);
    const dtype = this.dtype(item.dtype, at('dtype'), feature);
    // Everything is checked above; a factory error left (a default of the wrong size) gets the path.
    const build = (make: () => FeatureSpec, key: string): FeatureSpec => {
      try {
        return make();
      } catch (error) {
        if (TfpipeError.is(error)) this.fail(at(key), error.detail.replace(/^[\w ]*: /, ''), feature);
        throw error;
      }
    };
    switch (type as FeatureSpecJson['type']) {
      case 'fixedLen': {
        const shape = this.shape(item.shape, at('shape'), feature);
        const fallback =
          item.default === undefined
            ? {}
            : { default: this.defaultValue(item.default, dtype, at('default'), feature) };
        return build(() => fixedLen(shape, dtype, fallback as never), 'default');
      }
      case 'varLen':
        return varLen(dtype);
      case 'sparse': {
        const keys = item.indexKey;
        const indexKey = Array.isArray(keys)
          ? keys.map((key, index) => this.string(key, jsonPath(at('indexKey'), index), feature))
          : this.string(keys, at('indexKey'), feature);
        const size = this.dimensions(item.size, at('size'), feature, true);
        if ((Array.isArray(indexKey) ? indexKey.length : 1) !== size.length)
          this.fail(
            at('size'),
            `has ${size.length} sizes, but indexKey names ${Array.isArray(indexKey) ? indexKey.length : 1} features`,
            feature,
          );
        const alreadySorted = this.boolean(item.alreadySorted, at('alreadySorted'), feature) ?? false;
        const valueKey = this.string(item.valueKey, at('valueKey'), feature);
        return build(() => sparse({ indexKey, valueKey, dtype, size, alreadySorted }), 'indexKey');
      }
      case 'ragged': {
        const valueKey =
          item.valueKey === undefined ? undefined : this.string(item.valueKey, at('valueKey'), feature);
        if (item.partitions !== undefined && !Array.isArray(item.partitions))
          this.fail(at('partitions'), `expected an array, got ${describe(item.partitions)}`, feature);
        const partitions = ((item.partitions ?? []) as unknown[]).map((partition, index) =>
          this.partition(partition, jsonPath(at('partitions'), index), feature),
        );
        return ragged(dtype, { ...(valueKey === undefined ? {} : { valueKey }), partitions });
      }
      case 'fixedLenSequence': {
        const shape = this.shape(item.shape, at('shape'), feature);
        const allowMissing = this.boolean(item.allowMissing, at('allowMissing'), feature) ?? false;
        const fallback =
          item.default === undefined
            ? {}
            : { default: this.defaultValue(item.default, dtype, at('default'), feature) };
        return build(() => fixedLenSequence(shape, dtype, { allowMissing, ...fallback } as never), 'default');
      }
    }
  }

  specs(value: unknown, path: string): Record<string, FeatureSpec> {
    const object = this.object(value, path);
    // A null prototype: a feature named `__proto__` or `constructor` is just a feature.
    const specs = Object.create(null) as Record<string, FeatureSpec>;
    for (const [name, item] of Object.entries(object))
      specs[name] = this.feature(item, jsonPath(path, name), name);
    return specs;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : JSON.stringify(value);
}

/**
 * Reads a spec file's JSON value (`JSON.parse` of the file) into the specs `parseExample` and
 * `parseSequenceExample` take, checking every field.
 * @param json - the parsed JSON
 * @param file - the file's name, for error positions
 * @throws TfpipeError `INVALID_OPTION` naming the JSON path (`$.features.label.shape[0]: expected a
 *   positive whole number, got 0`), with `position.field` the feature and `position.file` the file
 */
export function specFromJson(json: unknown, file?: string): ParsedSpecJson {
  const checker = new Checker(file);
  const root = checker.object(json, '$');
  checker.fields(root, ['features', 'featureLists', '$schema'], '$');
  if (root.features === undefined)
    checker.fail('$.features', 'missing (an object of feature specs, may be {})');
  const features = checker.specs(root.features, '$.features');
  if (root.featureLists === undefined) return { features, featureLists: undefined };
  const featureLists = checker.specs(root.featureLists, '$.featureLists');
  for (const [name, spec] of Object.entries(featureLists)) {
    const fits =
      spec.type === 'fixedLenSequence' ||
      spec.type === 'varLen' ||
      (spec.type === 'ragged' && spec.partitions.length === 0);
    if (!fits)
      checker.fail(
        jsonPath(jsonPath('$.featureLists', name), 'type'),
        'a feature list takes fixedLenSequence, varLen or ragged without partitions',
        name,
      );
  }
  return { features, featureLists: featureLists as SequenceParseSpec };
}

/**
 * Parses a spec file's text: JSON, then {@link specFromJson}.
 * @throws TfpipeError `INVALID_OPTION`: not JSON (with the parser's message), or a bad field (its JSON path)
 */
export function specFromJsonText(text: string, file?: string): ParsedSpecJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TfpipeError('INVALID_OPTION', `the spec is not JSON: ${(error as Error).message}`, {
      stage: STAGE,
      fatal: true,
      ...(file === undefined ? {} : { position: { file } }),
    });
  }
  return specFromJson(json, file);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function defaultJson(
  data: FixedLenSpec['default'],
  shape: readonly number[] | undefined,
  name: string,
): DefaultJson {
  const values: DefaultJson[] = [];
  for (const value of data as Iterable<unknown>) {
    if (typeof value === 'bigint')
      values.push(Number.isSafeInteger(Number(value)) ? Number(value) : String(value));
    else if (value instanceof Uint8Array) {
      try {
        values.push(decoder.decode(value));
      } catch {
        throw new TfpipeError(
          'INVALID_OPTION',
          `feature ${name}: a default that is not UTF-8 text has no JSON form`,
          {
            stage: STAGE,
            fatal: true,
            position: { field: name },
          },
        );
      }
    } else values.push(value as number);
  }
  if (shape === undefined) return values[0]!;
  // Nested back into the shape, row-major, as the file would be written by hand.
  const nest = (offset: number, dimension: number): DefaultJson => {
    if (dimension === shape.length) return values[offset]!;
    const inner = shape.slice(dimension + 1).reduce((product, size) => product * size, 1);
    return Array.from({ length: shape[dimension]! }, (_, index) =>
      nest(offset + index * inner, dimension + 1),
    );
  };
  return nest(0, 0);
}

function featureJson(spec: FeatureSpec, name: string): FeatureSpecJson {
  switch (spec.type) {
    case 'fixedLen':
      return {
        type: 'fixedLen',
        shape: [...spec.shape],
        dtype: spec.dtype,
        ...(spec.default === undefined ? {} : { default: defaultJson(spec.default, spec.shape, name) }),
      };
    case 'varLen':
      return { type: 'varLen', dtype: spec.dtype };
    case 'sparse':
      return {
        type: 'sparse',
        indexKey: spec.indexKeys.length === 1 ? spec.indexKeys[0]! : [...spec.indexKeys],
        valueKey: spec.valueKey,
        dtype: spec.dtype,
        size: spec.size.length === 1 ? spec.size[0]! : [...spec.size],
        ...(spec.alreadySorted ? { alreadySorted: true } : {}),
      };
    case 'ragged':
      return {
        type: 'ragged',
        dtype: spec.dtype,
        ...(spec.valueKey === undefined ? {} : { valueKey: spec.valueKey }),
        ...(spec.partitions.length === 0
          ? {}
          : { partitions: spec.partitions.map((partition) => ({ ...partition })) }),
      };
    case 'fixedLenSequence':
      return {
        type: 'fixedLenSequence',
        shape: [...spec.shape],
        dtype: spec.dtype,
        ...(spec.allowMissing ? { allowMissing: true } : {}),
        ...(spec.default === undefined ? {} : { default: defaultJson(spec.default, undefined, name) }),
      };
  }
}

function specsJson(specs: Readonly<Record<string, FeatureSpec>>): Record<string, FeatureSpecJson> {
  const json = Object.create(null) as Record<string, FeatureSpecJson>;
  for (const [name, spec] of Object.entries(specs)) json[name] = featureJson(spec, name);
  return json;
}

/**
 * The JSON form of a spec, as {@link specFromJson} reads it back: `specFromJson(specToJson(spec))`
 * describes the same spec. Integer defaults beyond ±(2^53 - 1) become decimal strings.
 * @throws TfpipeError `INVALID_OPTION` for a `'string'` default that is not UTF-8 text
 */
export function specToJson(features: ExampleParseSpec, featureLists?: SequenceParseSpec): SpecJson {
  return {
    features: specsJson(features),
    ...(featureLists === undefined ? {} : { featureLists: specsJson(featureLists) }),
  };
}
