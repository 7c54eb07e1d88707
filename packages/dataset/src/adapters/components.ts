import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';
import { batchPosition } from '../batch-positions.js';
import type { ImageTensor } from '../image/decode-image.js';
import type { Tensor } from '../tensor.js';

/** A batch an adapter converts: parsed tensors, and decoded images. */
export type AdapterBatch = { readonly [name: string]: Tensor | ImageTensor };

/** The element types the adapters see: the parsed dtypes, uint8 images and indices. */
export type ComponentDtype = Tensor['dtype'] | ImageTensor['dtype'];

/** One flat array the frameworks take as a tensor. */
export interface Component {
  /** The feed's name: the feature, or `feature.indices` / `.values` / `.dense_shape` / `.row_splits_k`. */
  readonly name: string;
  /** The feature it belongs to. */
  readonly feature: string;
  readonly dtype: ComponentDtype;
  readonly data: Tensor['data'] | ImageTensor['data'];
  readonly shape: readonly number[];
  /** The batch index of the record that value `index` of `data` belongs to. */
  readonly recordOf: (index: number) => number;
}

/**
 * The batch as flat tensors: a dense tensor (or image) as it is; a sparse one as `name.indices`
 * (int64 `[count, rank]`), `name.values` and `name.dense_shape` (int64 `[rank]`), TensorFlow's
 * SparseTensor components; a ragged one as `name.values` and `name.row_splits_0` … (int32), outermost
 * first.
 */
export function componentsOf(batch: AdapterBatch, stage: string): Component[] {
  if (typeof batch !== 'object' || batch === null)
    throw new TfpipeError('INVALID_OPTION', `${stage} takes a parsed batch (an object of tensors)`, {
      stage,
      fatal: true,
    });
  const components: Component[] = [];
  for (const feature of Object.keys(batch)) {
    const tensor = batch[feature]!;
    const first = (): number => 0;
    switch (tensor?.kind) {
      case 'dense': {
        const perRecord = tensor.shape.slice(1).reduce((product, size) => product * size, 1);
        const recordOf = (index: number): number => (perRecord === 0 ? 0 : Math.floor(index / perRecord));
        components.push({
          name: feature,
          feature,
          dtype: tensor.dtype,
          data: tensor.data,
          shape: tensor.shape,
          recordOf,
        });
        break;
      }
      case 'sparse': {
        const rank = tensor.denseShape.length;
        const count = tensor.indices.length / rank;
        const recordOf = (index: number): number => Number(tensor.indices[index * rank]);
        const perIndex = (index: number): number => Math.floor(index / rank);
        components.push(
          {
            name: `${feature}.indices`,
            feature,
            dtype: 'int64',
            data: tensor.indices,
            shape: [count, rank],
            recordOf: (index) => recordOf(perIndex(index)),
          },
          valuesOf(feature, tensor, recordOf),
          {
            name: `${feature}.dense_shape`,
            feature,
            dtype: 'int64',
            data: BigInt64Array.from(tensor.denseShape, BigInt),
            shape: [rank],
            recordOf: first,
          },
        );
        break;
      }
      case 'ragged': {
        const splits = tensor.rowSplits;
        const recordOf = (index: number): number => {
          let row = index;
          for (let level = splits.length - 1; level >= 0; level--) row = rowOf(splits[level]!, row);
          return row;
        };
        components.push(valuesOf(feature, tensor, recordOf));
        splits.forEach((rowSplits, level) =>
          components.push({
            name: `${feature}.row_splits_${level}`,
            feature,
            dtype: 'int32',
            data: rowSplits,
            shape: [rowSplits.length],
            recordOf: first, // int32 already: no adapter narrows it
          }),
        );
        break;
      }
      default:
        throw new TfpipeError('INVALID_OPTION', `${stage}: ${feature} is not a tensor`, {
          stage,
          fatal: true,
          position: { field: feature },
        });
    }
  }
  return components;
}

/** The `name.values` component of a sparse or ragged tensor. */
function valuesOf(feature: string, tensor: Tensor, recordOf: (index: number) => number): Component {
  const { dtype, data, shape } = tensor;
  return { name: `${feature}.values`, feature, dtype, data, shape, recordOf };
}

/**
 * The batch's components ({@link componentsOf}), or only those named in `names`, in that order.
 * @throws TfpipeError `INVALID_OPTION` for a name the batch does not have, listing the ones it has
 */
export function selectComponents(
  batch: AdapterBatch,
  stage: string,
  names: readonly string[] | undefined,
): Component[] {
  const components = componentsOf(batch, stage);
  if (names === undefined) return components;
  const byName = new Map(components.map((component) => [component.name, component]));
  return names.map((name) => {
    const component = byName.get(name);
    if (component === undefined)
      throw new TfpipeError(
        'INVALID_OPTION',
        `names: ${JSON.stringify(name)} is not in this batch (it has ${[...byName.keys()].join(', ')})`,
        { stage, fatal: true },
      );
    return component;
  });
}

/** The row whose `[splits[row], splits[row + 1])` holds `index` (binary search). */
function rowOf(splits: Int32Array, index: number): number {
  let low = 0;
  let high = splits.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (splits[middle]! <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Where value `index` of a component came from: its record's position, and the feature. */
export function componentPosition(batch: object, component: Component, index: number): Position {
  const record = component.recordOf(index);
  return { ...(batchPosition(batch, record) ?? { recordIndex: record }), field: component.feature };
}
