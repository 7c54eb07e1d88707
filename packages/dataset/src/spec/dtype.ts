import { TfpipeError } from '@tfpipe/core';

/**
 * The element type of a parsed tensor. `'int64'`, `'float32'` and `'string'` are TensorFlow's three
 * Example dtypes; `'int32'` and `'number'` read an int64 feature narrowed to an `Int32Array` or a
 * `Float64Array`, and fail on a value that does not fit (outside int32, or beyond ±(2^53 - 1))
 * instead of rounding it.
 */
export type Dtype = 'int64' | 'int32' | 'number' | 'float32' | 'string';

/** The dtypes an int64 feature can be read as. */
export type IntegerDtype = 'int64' | 'int32' | 'number';

/** The typed array (or array of byte strings) that holds a tensor of dtype `D`. */
export type TensorData<D extends Dtype> = [D] extends ['int64']
  ? BigInt64Array
  : [D] extends ['int32']
    ? Int32Array
    : [D] extends ['number']
      ? Float64Array
      : [D] extends ['float32']
        ? Float32Array
        : [D] extends ['string']
          ? Uint8Array[]
          : BigInt64Array | Int32Array | Float64Array | Float32Array | Uint8Array[];

/** One default value of dtype `D`: a number or bigint for integers, a number for floats, text or bytes for strings. */
export type DefaultScalar<D extends Dtype> = [D] extends ['string']
  ? string | Uint8Array
  : [D] extends ['float32']
    ? number
    : bigint | number;

/** A default value: a scalar or nested arrays of scalars, taken in row-major order. */
export type DefaultValue<D extends Dtype> = DefaultScalar<D> | readonly DefaultValue<D>[];

/** How a feature of this dtype is stored in a `tf.train.Feature`. */
export type WireKind = 'int64' | 'float' | 'bytes';

const DTYPES: readonly Dtype[] = ['int64', 'int32', 'number', 'float32', 'string'];

/** The Feature kind holding values of `dtype`. */
export function wireKindOf(dtype: Dtype): WireKind {
  return dtype === 'float32' ? 'float' : dtype === 'string' ? 'bytes' : 'int64';
}

/** TensorFlow's name of the dtype a Feature of this kind holds, as its error messages print it. */
export function tfTypeName(kind: WireKind): string {
  return kind === 'bytes' ? 'string' : kind;
}

/** Fails unless `dtype` is one of the five dtypes. */
export function checkDtype(dtype: unknown, feature: string): Dtype {
  if (typeof dtype !== 'string' || !DTYPES.includes(dtype as Dtype)) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `feature ${feature}: dtype must be one of ${DTYPES.join(', ')}, got ${JSON.stringify(dtype)}`,
      { stage: 'parseExample', fatal: true, position: { field: feature } },
    );
  }
  return dtype as Dtype;
}

/** An empty tensor data array of `dtype` with room for `length` values. */
export function allocateData<D extends Dtype>(dtype: D, length: number): TensorData<D> {
  switch (dtype) {
    case 'int64':
      return new BigInt64Array(length) as TensorData<D>;
    case 'int32':
      return new Int32Array(length) as TensorData<D>;
    case 'number':
      return new Float64Array(length) as TensorData<D>;
    case 'float32':
      return new Float32Array(length) as TensorData<D>;
    default:
      return new Array<Uint8Array>(length).fill(EMPTY_BYTES) as TensorData<D>;
  }
}

/** The one empty byte string padding uses (never written to: arrays of bytes are read-only by contract). */
export const EMPTY_BYTES = new Uint8Array(0);
