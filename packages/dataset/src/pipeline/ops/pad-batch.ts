import { TfpipeError } from '@tfpipe/core';
import { allocateData } from '../../spec/dtype.js';
import type { DenseTensor } from '../../tensor.js';

/** A 1-D element `paddedBatch` pads: a typed array of a tensor dtype, or an array of numbers. */
export type PaddableArray = BigInt64Array | Int32Array | Float64Array | Float32Array | readonly number[];

/** A `paddedBatch` element: one array, or an object of them (each padded on its own). */
export type Paddable = PaddableArray | { readonly [name: string]: PaddableArray };

/** The dense tensor an array pads to: `int64` for `BigInt64Array`, `number` for plain numbers. */
export type PaddedTensorOf<A> = A extends BigInt64Array
  ? DenseTensor<'int64'>
  : A extends Int32Array
    ? DenseTensor<'int32'>
    : A extends Float32Array
      ? DenseTensor<'float32'>
      : DenseTensor<'number'>;

/** What `paddedBatch` makes of a batch of `E`. */
export type PaddedBatch<E> = [E] extends [PaddableArray]
  ? PaddedTensorOf<E>
  : { readonly [K in keyof E]: PaddedTensorOf<E[K]> };

/** Options of `paddedBatch`. */
export interface PaddedBatchOptions {
  /** Pad every element to this many values (elements longer fail); else to the longest in the batch. @default undefined */
  readonly paddedLength?: number;
  /** The value padding adds (a `bigint` pads `BigInt64Array`s; numbers are converted). @default 0 */
  readonly paddingValue?: number | bigint;
  /** Drop a last batch shorter than `size`. @default false */
  readonly dropRemainder?: boolean;
}

const STAGE = 'paddedBatch';

function dtypeOf(array: PaddableArray): 'int64' | 'int32' | 'float32' | 'number' {
  if (array instanceof BigInt64Array) return 'int64';
  if (array instanceof Int32Array) return 'int32';
  if (array instanceof Float32Array) return 'float32';
  if (array instanceof Float64Array || Array.isArray(array)) return 'number';
  throw new TfpipeError(
    'INVALID_OPTION',
    'paddedBatch pads BigInt64Array, Int32Array, Float32Array, Float64Array or number[] elements',
    { stage: STAGE, fatal: true },
  );
}

/** Pads a batch of 1-D arrays to one dense `[batch, length]` tensor. */
function padArrays(
  arrays: readonly PaddableArray[],
  options: PaddedBatchOptions,
  field?: string,
): DenseTensor {
  const dtype = dtypeOf(arrays[0]!);
  let length = options.paddedLength ?? 0;
  arrays.forEach((array, index) => {
    if (dtypeOf(array) !== dtype) {
      throw new TfpipeError('FEATURE_TYPE', `element ${index} is not a ${dtype} array like element 0`, {
        stage: STAGE,
        ...(field === undefined ? {} : { position: { field } }),
      });
    }
    if (options.paddedLength !== undefined && array.length > options.paddedLength) {
      throw new TfpipeError(
        'FEATURE_TYPE',
        `element ${index} has ${array.length} values, more than paddedLength ${options.paddedLength}`,
        { stage: STAGE, ...(field === undefined ? {} : { position: { field } }) },
      );
    }
    length = Math.max(length, array.length);
  });
  const data = allocateData(dtype, arrays.length * length);
  const padding = options.paddingValue ?? 0;
  if (padding !== 0 && padding !== 0n) {
    (data as { fill(value: unknown): unknown }).fill(dtype === 'int64' ? BigInt(padding) : Number(padding));
  }
  arrays.forEach((array, index) =>
    (data as { set(values: ArrayLike<unknown>, at: number): void }).set(array, index * length),
  );
  return { kind: 'dense', dtype, data, shape: [arrays.length, length] };
}

/** `tf.data.Dataset.padded_batch` for 1-D elements: each array (or each named array) padded to one length. */
export function padBatch<E extends Paddable>(
  elements: readonly E[],
  options: PaddedBatchOptions,
): PaddedBatch<E> {
  const first = elements[0]!;
  if (Array.isArray(first) || ArrayBuffer.isView(first))
    return padArrays(elements as readonly PaddableArray[], options) as PaddedBatch<E>;
  const batch = Object.create(null) as Record<string, DenseTensor>;
  for (const name of Object.keys(first)) {
    batch[name] = padArrays(
      elements.map((element) => (element as Record<string, PaddableArray>)[name]!),
      options,
      name,
    );
  }
  return batch as PaddedBatch<E>;
}
