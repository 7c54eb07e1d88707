import { TfpipeError } from '@tfpipe/core';
import { allocateData } from './dtype.js';
import type { DefaultValue, Dtype, TensorData } from './dtype.js';

const encoder = new TextEncoder();
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function invalid(feature: string, detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `feature ${feature}: default ${detail}`, {
    stage: 'parseExample',
    fatal: true,
    position: { field: feature },
  });
}

function flatten(value: unknown, into: unknown[]): void {
  if (Array.isArray(value)) for (const item of value) flatten(item, into);
  else into.push(value);
}

function integer(value: unknown, dtype: Dtype, feature: string): bigint {
  let result: bigint;
  if (typeof value === 'bigint') result = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) result = BigInt(value);
  else throw invalid(feature, `value ${String(value)} is not an integer (a bigint or a safe-integer number)`);
  const fits =
    dtype === 'int32'
      ? result >= -0x80000000n && result <= 0x7fffffffn
      : dtype === 'number'
        ? result >= -BigInt(Number.MAX_SAFE_INTEGER) && result <= BigInt(Number.MAX_SAFE_INTEGER)
        : result >= INT64_MIN && result <= INT64_MAX;
  if (!fits) throw invalid(feature, `value ${result} does not fit dtype ${dtype}`);
  return result;
}

/**
 * A default value as tensor data of `dtype` with exactly `count` values, the way TensorFlow reshapes
 * `default_value` to the feature's shape: nested arrays are read in row-major order, and the number
 * of values must equal the shape's (a scalar fills a shape of one element only; nothing broadcasts).
 * @throws TfpipeError `INVALID_OPTION` naming the feature
 */
export function defaultData<D extends Dtype>(
  dtype: D,
  value: DefaultValue<D>,
  count: number,
  feature: string,
): TensorData<D> {
  const values: unknown[] = [];
  flatten(value, values);
  if (values.length !== count) {
    throw invalid(feature, `has ${values.length} values, but its shape holds ${count}`);
  }
  const data = allocateData(dtype, count);
  values.forEach((item, index) => {
    if (dtype === 'string') {
      if (typeof item === 'string') (data as Uint8Array[])[index] = encoder.encode(item);
      else if (item instanceof Uint8Array) (data as Uint8Array[])[index] = item.slice();
      else throw invalid(feature, `value ${String(item)} is neither a string nor a Uint8Array`);
    } else if (dtype === 'float32') {
      if (typeof item !== 'number') throw invalid(feature, `value ${String(item)} is not a number`);
      (data as Float32Array)[index] = item;
    } else {
      const checked = integer(item, dtype, feature);
      if (dtype === 'int64') (data as BigInt64Array)[index] = checked;
      else (data as Int32Array | Float64Array)[index] = Number(checked);
    }
  });
  return data;
}
