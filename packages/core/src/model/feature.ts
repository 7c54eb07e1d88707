import { TfpipeError } from '../errors/tfpipe-error.js';
import { utf8 } from '../stages/spec/coerce-bytes.js';

/** A `tf.train.BytesList`: raw byte strings. */
export interface BytesFeature {
  readonly kind: 'bytes';
  readonly value: readonly Uint8Array[];
}

/** A `tf.train.FloatList`: float32 values (a double is narrowed to float32 when encoded). */
export interface FloatFeature {
  readonly kind: 'float';
  readonly value: readonly number[] | Float32Array;
}

/** A `tf.train.Int64List`: exact 64-bit signed integers as `bigint`. */
export interface Int64Feature {
  readonly kind: 'int64';
  readonly value: readonly bigint[];
}

/**
 * A `tf.train.Feature` with no kind set. Legal, and written by TFX for empty cells; it reads as
 * present-but-empty, which is not the same as a missing feature.
 */
export interface EmptyFeature {
  readonly kind: 'none';
  readonly value: readonly never[];
}

/** One `tf.train.Feature`. */
export type Feature = BytesFeature | FloatFeature | Int64Feature | EmptyFeature;

/** The kind of a feature, as the `tf.train.Feature` oneof names them (plus `'none'` for no kind set). */
export type FeatureKind = Feature['kind'];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A bytes feature. Strings are UTF-8 encoded. For an array of values, use {@link bytesList}. */
export function bytes(...values: readonly (Uint8Array | string)[]): BytesFeature {
  return bytesList(values);
}

/**
 * A bytes feature from an array of any length; strings are UTF-8 encoded. Spreading a long array into
 * {@link bytes} passes every value as an argument, which overflows the stack past ~100k values.
 */
export function bytesList(values: readonly (Uint8Array | string)[]): BytesFeature {
  return {
    kind: 'bytes',
    value: values.map((value) => (typeof value === 'string' ? utf8(value) : value)),
  };
}

/** A float feature. Values are stored as float32 on the wire. For an array of values, use {@link floatList}. */
export function float(...values: readonly number[]): FloatFeature {
  return floatList(values);
}

/**
 * A float feature from an array of any length (kept as given, not copied). Spreading a long array
 * into {@link float} overflows the stack past ~100k values.
 * @throws TfpipeError `FEATURE_TYPE` for a value that is not a number
 */
export function floatList(values: readonly number[]): FloatFeature {
  for (const value of values) {
    if (typeof value !== 'number') {
      throw new TfpipeError('FEATURE_TYPE', `float feature value must be a number, got ${typeof value}`);
    }
  }
  return { kind: 'float', value: values };
}

/**
 * An int64 feature. `bigint`s must lie in the int64 range; `number`s must be safe integers:
 * an unsafe number is an error, never silently rounded. For an array of values, use {@link int64List}.
 */
export function int64(...values: readonly (bigint | number)[]): Int64Feature {
  return int64List(values);
}

/**
 * An int64 feature from an array of any length, checked as {@link int64} checks. Spreading a long
 * array into {@link int64} overflows the stack past ~100k values.
 * @throws TfpipeError `UNSAFE_INTEGER` or `INT64_RANGE`
 */
export function int64List(values: readonly (bigint | number)[]): Int64Feature {
  return { kind: 'int64', value: values.map((value) => toInt64(value)) };
}

/** A feature with no kind set (present but empty), as TFX writes for empty cells. */
export function emptyFeature(): EmptyFeature {
  return { kind: 'none', value: [] };
}

/**
 * Checks one int64 value: a bigint in [-2^63, 2^63 - 1], or a safe-integer number.
 * @throws TfpipeError `UNSAFE_INTEGER` or `INT64_RANGE`
 */
export function toInt64(value: bigint | number): bigint {
  if (typeof value === 'bigint') {
    if (value < INT64_MIN || value > INT64_MAX) {
      throw new TfpipeError('INT64_RANGE', `${value} is outside the int64 range`);
    }
    return value;
  }
  if (typeof value !== 'number') {
    throw new TfpipeError(
      'FEATURE_TYPE',
      `int64 feature value must be a bigint or a number, got ${typeof value}`,
    );
  }
  if (!Number.isSafeInteger(value)) {
    throw new TfpipeError(
      'UNSAFE_INTEGER',
      Number.isInteger(value)
        ? `${value} is beyond Number.MAX_SAFE_INTEGER and may already be rounded; pass a bigint`
        : `${value} is not an integer`,
    );
  }
  return BigInt(value);
}

/** The number of values in a feature. */
export function featureLength(feature: Feature): number {
  return feature.value.length;
}
