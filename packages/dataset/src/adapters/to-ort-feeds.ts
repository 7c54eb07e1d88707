import { TfpipeError } from '@tfpipe/core';
import type { Tensor } from 'onnxruntime-common';
import { componentPosition, selectComponents } from './components.js';
import type { AdapterBatch, Component } from './components.js';
import { loadOptionalPeer } from './optional-peer.js';

/** Options of `toOrtFeeds`. */
export interface ToOrtFeedsOptions {
  /**
   * The `Tensor` class of your runtime (`ort.Tensor` from `onnxruntime-node` or `onnxruntime-web`), for
   * when it comes from another copy of `onnxruntime-common` than the one this package resolves
   * (a session checks `instanceof`).
   * @default onnxruntime-common's `Tensor`
   */
  readonly Tensor?: typeof Tensor;
  /** Only these feeds (names as in the result: `image`, `tags.values` …), in this order. @default every feed */
  readonly names?: readonly string[];
}

const STAGE = 'toOrtFeeds';
const ortCommon = await loadOptionalPeer('onnxruntime-common', STAGE, () => import('onnxruntime-common'));
/** onnxruntime's element type for each dtype. */
const ORT_TYPES = {
  int64: 'int64',
  int32: 'int32',
  number: 'float64',
  float32: 'float32',
  string: 'string',
  uint8: 'uint8',
} as const;

/**
 * A parsed batch (and decoded images) as onnxruntime feeds, `session.run(toOrtFeeds(batch))`: each
 * dense tensor as `new Tensor(type, data, shape)` sharing its typed array (int64 stays a
 * `BigInt64Array`, `'number'` is float64, an image uint8); byte strings as a string tensor of their
 * UTF-8 text; a sparse feature as `name.indices`, `name.values`, `name.dense_shape`; a ragged one as
 * `name.values` and `name.row_splits_0` … (int32).
 * @throws TfpipeError `FEATURE_TYPE` for a byte string that is not UTF-8 (naming its record),
 *   `INVALID_OPTION` for a name that is not a feed of the batch
 */
export function toOrtFeeds(batch: AdapterBatch, options: ToOrtFeedsOptions = {}): Record<string, Tensor> {
  const TensorClass = options.Tensor ?? ortCommon().Tensor;
  const chosen = selectComponents(batch, STAGE, options.names);
  const feeds = Object.create(null) as Record<string, Tensor>; // a feature may be named __proto__
  for (const component of chosen) {
    const dims = [...component.shape];
    feeds[component.name] =
      component.dtype === 'string'
        ? new TensorClass('string', textsOf(batch, component), dims)
        : new TensorClass(
            ORT_TYPES[component.dtype],
            component.data as Exclude<Component['data'], Uint8Array[]>,
            dims,
          );
  }
  return feeds;
}

/** Byte strings as text: onnxruntime's string tensors hold JavaScript strings. */
function textsOf(batch: AdapterBatch, component: Component): string[] {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const values = component.data as Uint8Array[];
  return values.map((value, index) => {
    try {
      return decoder.decode(value);
    } catch (error) {
      throw new TfpipeError(
        'FEATURE_TYPE',
        'a byte string that is not UTF-8 cannot be an onnxruntime string',
        {
          stage: STAGE,
          position: componentPosition(batch, component, index),
          cause: error,
        },
      );
    }
  });
}
