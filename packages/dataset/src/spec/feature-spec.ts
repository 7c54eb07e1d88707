import { TfpipeError } from '@tfpipe/core';
import { checkDtype } from './dtype.js';
import type { DefaultValue, Dtype, IntegerDtype, TensorData } from './dtype.js';
import { defaultData } from './default-value.js';
import type { RaggedPartition } from './ragged-partition.js';

/** `tf.io.FixedLenFeature`: exactly `shape`'s number of values in every Example, else the default. */
export interface FixedLenSpec<D extends Dtype = Dtype> {
  readonly type: 'fixedLen';
  /** Dimensions of one Example's tensor; `[]` for a scalar. */
  readonly shape: readonly number[];
  readonly dtype: D;
  /** The default as tensor data (shape's number of values), or undefined when the feature is required. */
  readonly default: TensorData<D> | undefined;
}

/** `tf.io.VarLenFeature`: any number of values per Example, as a sparse tensor `[batch, maxLength]`. */
export interface VarLenSpec<D extends Dtype = Dtype> {
  readonly type: 'varLen';
  readonly dtype: D;
}

/** `tf.io.SparseFeature`: values at indices given by int64 index features, as a sparse tensor `[batch, ...size]`. */
export interface SparseSpec<D extends Dtype = Dtype> {
  readonly type: 'sparse';
  /** The int64 features holding each value's index, one per dimension. */
  readonly indexKeys: readonly string[];
  /** The feature holding the values. */
  readonly valueKey: string;
  readonly dtype: D;
  /** The dense shape without the batch dimension, one size per index key. */
  readonly size: readonly number[];
  /** The indices are already in order, so they are not sorted. */
  readonly alreadySorted: boolean;
}

/** `tf.io.RaggedFeature`: values plus row splits, one ragged dimension per partition plus the batch's. */
export interface RaggedSpec<D extends Dtype = Dtype> {
  readonly type: 'ragged';
  readonly dtype: D;
  /** The feature holding the values; undefined means the spec's own name. */
  readonly valueKey: string | undefined;
  /** Partitions, outermost first. */
  readonly partitions: readonly RaggedPartition[];
}

/** `tf.io.FixedLenSequenceFeature` in an Example: a list of steps of `shape`, padded to the batch's longest. */
export interface FixedLenSequenceSpec<D extends Dtype = Dtype> {
  readonly type: 'fixedLenSequence';
  /** Dimensions of one step. */
  readonly shape: readonly number[];
  readonly dtype: D;
  /** Must be true in an Example spec, as TensorFlow requires. */
  readonly allowMissing: boolean;
  /** The padding value (one value), or undefined for 0, 0n or empty bytes. */
  readonly default: TensorData<D> | undefined;
}

/** Any one feature spec. */
export type FeatureSpec<D extends Dtype = Dtype> =
  FixedLenSpec<D> | VarLenSpec<D> | SparseSpec<D> | RaggedSpec<D> | FixedLenSequenceSpec<D>;

/** A parse spec: output name → feature spec, like the `features` dict of `tf.io.parse_example`. */
export type ExampleParseSpec = Readonly<Record<string, FeatureSpec>>;

function invalid(detail: string, field?: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', detail, {
    stage: 'parseExample',
    fatal: true,
    ...(field === undefined ? {} : { position: { field } }),
  });
}

/**
 * The most values one Example's fixed-shape feature (a `fixedLen`, a `fixedLenSequence` step) may
 * hold: 2^31 - 1, protobuf's 2 GiB message limit at one byte per value, so no record could fill more.
 */
export const MAX_SHAPE_VALUES = 2 ** 31 - 1;

/**
 * Checks a shape: whole dimensions above zero (TensorFlow rejects unknown and zero dimensions here).
 * With `maxValues`, the dimensions' product must not exceed it. `field` names the feature in the error's position.
 */
export function checkShape(
  shape: unknown,
  what: string,
  maxValues = Number.MAX_SAFE_INTEGER,
  field?: string,
): readonly number[] {
  if (!Array.isArray(shape))
    throw invalid(`${what}: shape must be an array of dimensions, e.g. [] or [3]`, field);
  const text = `[${shape.map(String).join(', ')}]`;
  for (const dimension of shape) {
    if (!Number.isSafeInteger(dimension) || (dimension as number) <= 0) {
      throw invalid(
        `${what}: all dimensions of shape need to be known and positive but received ${text}`,
        field,
      );
    }
  }
  const count = elements(shape as number[]);
  if (count > maxValues)
    throw invalid(
      `${what}: shape ${text} holds ${count} values per Example, more than ${maxValues} (a record holds at most 2 GiB)`,
      field,
    );
  return Object.freeze([...(shape as number[])]);
}

function elements(shape: readonly number[]): number {
  return shape.reduce((product, dimension) => product * dimension, 1);
}

/** Options of {@link fixedLen}. */
export interface FixedLenOptions<D extends Dtype> {
  /**
   * Used when the feature is missing or has no kind. Holds exactly the shape's number of values
   * (nested arrays are read row-major). Without it the feature is required.
   * @default undefined (required)
   */
  readonly default?: DefaultValue<D>;
}

/**
 * `tf.io.FixedLenFeature(shape, dtype, default_value)`: each Example has exactly `shape`'s number of
 * values; the batch tensor has shape `[batch, ...shape]`.
 * @param shape dimensions of one Example's value, `[]` for a scalar
 * @param dtype `'int64'` (exact, `BigInt64Array`), `'int32'` / `'number'` (an int64 feature narrowed, checked),
 *   `'float32'` or `'string'` (`Uint8Array[]`)
 * @throws TfpipeError `INVALID_OPTION` for a bad shape, dtype or default
 */
export function fixedLen<const D extends Dtype>(
  shape: readonly number[],
  dtype: D,
  options: FixedLenOptions<D> = {},
): FixedLenSpec<D> {
  const checkedShape = checkShape(shape, 'fixedLen', MAX_SHAPE_VALUES);
  checkDtype(dtype, 'fixedLen');
  const given = options.default;
  return {
    type: 'fixedLen',
    shape: checkedShape,
    dtype,
    default: given === undefined ? undefined : defaultData(dtype, given, elements(checkedShape), 'fixedLen'),
  };
}

/** `tf.io.VarLenFeature(dtype)`: any number of values, as a sparse tensor `[batch, maxLength]`. */
export function varLen<const D extends Dtype>(dtype: D): VarLenSpec<D> {
  checkDtype(dtype, 'varLen');
  return { type: 'varLen', dtype };
}

/** Options of {@link sparse}. */
export interface SparseOptions<D extends Dtype> {
  /** The int64 feature(s) holding the indices, one per dimension. */
  readonly indexKey: string | readonly string[];
  /** The feature holding the values. */
  readonly valueKey: string;
  readonly dtype: D;
  /** The dense size of each dimension (one per index key); an index must lie in `[0, size)`. */
  readonly size: number | readonly number[];
  /**
   * The indices are given in order: skip sorting them.
   * @default false
   */
  readonly alreadySorted?: boolean;
}

/** `tf.io.SparseFeature(index_key, value_key, dtype, size, already_sorted)`. */
export function sparse<const D extends Dtype>(options: SparseOptions<D>): SparseSpec<D> {
  const indexKeys = typeof options.indexKey === 'string' ? [options.indexKey] : [...options.indexKey];
  const size = checkShape(typeof options.size === 'number' ? [options.size] : options.size, 'sparse size');
  if (indexKeys.length === 0 || indexKeys.some((key) => typeof key !== 'string'))
    throw invalid('sparse: indexKey must be a feature name or a non-empty array of them');
  if (indexKeys.length !== size.length)
    throw invalid(`sparse: ${indexKeys.length} index keys but ${size.length} sizes`);
  if (typeof options.valueKey !== 'string') throw invalid('sparse: valueKey must be a feature name');
  checkDtype(options.dtype, options.valueKey);
  return {
    type: 'sparse',
    indexKeys,
    valueKey: options.valueKey,
    dtype: options.dtype,
    size,
    alreadySorted: options.alreadySorted ?? false,
  };
}

/** Options of {@link ragged}. */
export interface RaggedOptions {
  /**
   * The feature holding the values.
   * @default the spec's own name
   */
  readonly valueKey?: string;
  /**
   * Partitions of the values, outermost first (`rowSplits('k')`, `rowLengths('k')`, `rowStarts('k')`,
   * `rowLimits('k')`, `valueRowIds('k')`, `uniformRowLength(n)`).
   * @default [] (one ragged dimension: each Example's list)
   */
  readonly partitions?: readonly RaggedPartition[];
}

/** `tf.io.RaggedFeature(dtype, value_key, partitions)`: flat values plus one row-splits array per ragged dimension. */
export function ragged<const D extends Dtype>(dtype: D, options: RaggedOptions = {}): RaggedSpec<D> {
  checkDtype(dtype, options.valueKey ?? 'ragged');
  return { type: 'ragged', dtype, valueKey: options.valueKey, partitions: [...(options.partitions ?? [])] };
}

/** Options of {@link fixedLenSequence}. */
export interface FixedLenSequenceOptions<D extends Dtype> {
  /**
   * A missing feature reads as zero steps. TensorFlow's `parse_example` requires `true`.
   * @default false
   */
  readonly allowMissing?: boolean;
  /**
   * The value that pads shorter Examples up to the batch's longest (one scalar).
   * @default 0, 0n or empty bytes
   */
  readonly default?: DefaultValue<D>;
}

/**
 * `tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing, default_value)` in an Example: a
 * variable number of steps of `shape`; the batch tensor is `[batch, maxSteps, ...shape]`, padded.
 */
export function fixedLenSequence<const D extends Dtype>(
  shape: readonly number[],
  dtype: D,
  options: FixedLenSequenceOptions<D> = {},
): FixedLenSequenceSpec<D> {
  const checkedShape = checkShape(shape, 'fixedLenSequence', MAX_SHAPE_VALUES);
  checkDtype(dtype, 'fixedLenSequence');
  const given = options.default;
  return {
    type: 'fixedLenSequence',
    shape: checkedShape,
    dtype,
    allowMissing: options.allowMissing ?? false,
    default: given === undefined ? undefined : defaultData(dtype, given, 1, 'fixedLenSequence'),
  };
}

/** True for the dtypes an int64 feature is read as. */
export function isIntegerDtype(dtype: Dtype): dtype is IntegerDtype {
  return dtype === 'int64' || dtype === 'int32' || dtype === 'number';
}
