import { TfpipeError } from '@tfpipe/core';
import type { data, Tensor as TfTensor } from '@tensorflow/tfjs';
import { componentPosition, selectComponents } from './components.js';
import type { AdapterBatch, Component } from './components.js';
import { loadOptionalPeer } from './optional-peer.js';

/** Options of `toTfjs`. */
export interface ToTfjsOptions {
  /** Only these tensors (names as `toOrtFeeds` gives them: `image`, `tags.values` …). @default every one */
  readonly names?: readonly string[];
}

/** One element of a `toTfjs` dataset: a `tf.Tensor` per feature (or component). */
export type TfjsBatch = Record<string, TfTensor>;

const STAGE = 'toTfjs';
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const tfjs = await loadOptionalPeer('@tensorflow/tfjs', STAGE, () => import('@tensorflow/tfjs'));

/**
 * A dataset of parsed batches as a `tf.data.Dataset` of TensorFlow.js (`tf.data.generator`): each
 * element is an object of `tf.Tensor`s, one per feature (a sparse one as `name.indices`, `name.values`,
 * `name.dense_shape`; a ragged one as `name.values`, `name.row_splits_0` …). TensorFlow.js has no int64:
 * int64 and `'number'` values are narrowed to int32, and one that does not fit fails (never wraps);
 * uint8 images become int32 (as `tf.browser.fromPixels` gives), byte strings string tensors. Each pass
 * of the tfjs dataset is a new pass of `dataset`. The consumer owns (and disposes) the tensors; tfjs's
 * `model.fitDataset` does.
 * @throws TfpipeError `INT64_RANGE` naming the feature, the file, the record and its byte offset
 */
export function toTfjs<T extends AdapterBatch>(
  dataset: AsyncIterable<T>,
  options: ToTfjsOptions = {},
): data.Dataset<TfjsBatch> {
  if (typeof (dataset as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] !== 'function')
    throw new TfpipeError('INVALID_OPTION', 'toTfjs takes a dataset (an async iterable of parsed batches)', {
      stage: STAGE,
      fatal: true,
    });
  const names = options.names;
  return tfjs().data.generator(async function* () {
    for await (const batch of dataset) yield tfjsBatch(batch, names);
  });
}

/** One parsed batch as `tf.Tensor`s. */
export function tfjsBatch(batch: AdapterBatch, names?: readonly string[]): TfjsBatch {
  const components = selectComponents(batch, STAGE, names);
  // Check (and narrow) every component before making any tensor, so a failure leaks none.
  const prepared = components.map((component) => [component, tfjsValues(batch, component)] as const);
  const out = Object.create(null) as TfjsBatch; // a feature may be named __proto__
  for (const [component, [values, dtype]] of prepared)
    out[component.name] = tfjs().tensor(values, [...component.shape], dtype);
  return out;
}

function tfjsValues(
  batch: AdapterBatch,
  component: Component,
): readonly [Float32Array | Int32Array | Uint8Array[], 'float32' | 'int32' | 'string'] {
  switch (component.dtype) {
    case 'float32':
      return [component.data as Float32Array, 'float32'];
    case 'int32':
      return [component.data as Int32Array, 'int32'];
    case 'string':
      return [component.data as Uint8Array[], 'string'];
    case 'uint8':
      return [Int32Array.from(component.data as Uint8Array), 'int32'];
    default:
      return [narrow(batch, component), 'int32'];
  }
}

/** int64 (or int64 read as numbers) to int32, failing on the first value that does not fit. */
function narrow(batch: AdapterBatch, component: Component): Int32Array {
  const values = component.data as BigInt64Array | Float64Array;
  const out = new Int32Array(values.length);
  for (let index = 0; index < values.length; index++) {
    const value = Number(values[index]!);
    if (value < INT32_MIN || value > INT32_MAX) {
      const position = componentPosition(batch, component, index);
      throw new TfpipeError(
        'INT64_RANGE',
        `Key: ${component.feature}, Index: ${component.recordOf(index)}.  Value ${String(values[index])} does not fit TensorFlow.js's int32`,
        { stage: STAGE, position },
      );
    }
    out[index] = value;
  }
  return out;
}
