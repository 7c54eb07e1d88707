import { TfpipeError } from '@tfpipe/core';

/**
 * One partition of a ragged feature, as `tf.io.RaggedFeature`'s `RowSplits`, `RowLengths`,
 * `RowStarts`, `RowLimits`, `ValueRowIds` and `UniformRowLength` give it: the int64 feature that
 * partitions the level below it, or a fixed row length.
 */
export type RaggedPartition =
  | {
      readonly type: 'rowSplits' | 'rowLengths' | 'rowStarts' | 'rowLimits' | 'valueRowIds';
      /** The int64 feature holding the partition. */
      readonly key: string;
    }
  | {
      readonly type: 'uniformRowLength';
      /** Values per row. */
      readonly length: number;
    };

function keyed(
  type: 'rowSplits' | 'rowLengths' | 'rowStarts' | 'rowLimits' | 'valueRowIds',
  key: string,
): RaggedPartition {
  if (typeof key !== 'string' || key === '') {
    throw new TfpipeError('INVALID_OPTION', `${type} needs the name of an int64 feature`, {
      stage: 'parseExample',
      fatal: true,
    });
  }
  return { type, key };
}

/** `RaggedFeature.RowSplits(key)`: offsets `[0, ..., n]` where each row starts and the last ends. */
export function rowSplits(key: string): RaggedPartition {
  return keyed('rowSplits', key);
}

/** `RaggedFeature.RowLengths(key)`: the length of each row. */
export function rowLengths(key: string): RaggedPartition {
  return keyed('rowLengths', key);
}

/** `RaggedFeature.RowStarts(key)`: where each row starts. */
export function rowStarts(key: string): RaggedPartition {
  return keyed('rowStarts', key);
}

/** `RaggedFeature.RowLimits(key)`: where each row ends. */
export function rowLimits(key: string): RaggedPartition {
  return keyed('rowLimits', key);
}

/** `RaggedFeature.ValueRowIds(key)`: the row of each value, in order. */
export function valueRowIds(key: string): RaggedPartition {
  return keyed('valueRowIds', key);
}

/** `RaggedFeature.UniformRowLength(length)`: every row holds `length` values. */
export function uniformRowLength(length: number): RaggedPartition {
  if (!Number.isSafeInteger(length) || length <= 0) {
    throw new TfpipeError('INVALID_OPTION', `uniformRowLength must be a positive integer, got ${length}`, {
      stage: 'parseExample',
      fatal: true,
    });
  }
  return { type: 'uniformRowLength', length };
}
