import { arrayChunks } from './chunks.js';
import { Dataset } from './dataset.js';

/** A dataset of values in memory (`tf.data.Dataset.from_tensor_slices` of a list): a file list to interleave, test data. */
export function fromArray<T>(values: readonly T[]): Dataset<T> {
  const copy = [...values];
  return new Dataset(() => arrayChunks(copy));
}
