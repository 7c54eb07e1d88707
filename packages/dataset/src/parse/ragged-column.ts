import { TfpipeError } from '@tfpipe/core';
import { KIND_NONE } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import { ValueBuffer } from '../wire/value-buffer.js';
import { countValues, writeValues } from '../wire/value-writer.js';
import type { RaggedSpec } from '../spec/feature-spec.js';
import type { RaggedTensor } from '../tensor.js';
import { kindNumberOf, layoutError, sparseKindError } from './column.js';
import type { Column } from './column.js';
import { partitionSplits } from './partition-splits.js';
import { readIntList } from './read-int-list.js';

/**
 * A RaggedFeature: the batch's values in one array, and row splits for the batch dimension and each
 * partition. Partitions are always checked against the values (TensorFlow's `validate=True`): a
 * misaligned one fails rather than producing a tensor that reads out of bounds.
 */
export class RaggedColumn implements Column {
  private readonly kind: number;
  private values: ValueBuffer;
  /** Per level, outermost (the batch) first: the splits so far, offset into the level below. */
  private levels: number[][] = [];

  constructor(
    private readonly key: string,
    private readonly valueSlot: number,
    private readonly partitionSlots: readonly number[],
    private readonly spec: RaggedSpec,
  ) {
    this.kind = kindNumberOf(spec.dtype);
    this.values = new ValueBuffer(spec.dtype, 0);
  }

  start(): void {
    this.values = new ValueBuffer(this.spec.dtype, 64);
    this.levels = Array.from({ length: this.spec.partitions.length + 1 }, () => [0]);
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const valueKey = this.spec.valueKey ?? this.key;
    const kind = locator.resolve(this.valueSlot);
    if (kind !== KIND_NONE && kind !== this.kind)
      throw sparseKindError(valueKey, exampleIndex, kind, this.spec.dtype);
    const count = kind === KIND_NONE ? 0 : countValues(locator, kind);
    this.values.reserve(count);
    if (count > 0) writeValues(locator, kind, this.values, this.values.length, count, valueKey, exampleIndex);
    this.values.length += count;
    // Innermost partition first: each one splits the items of the level below it.
    let items = count;
    for (let level = this.spec.partitions.length - 1; level >= 0; level--) {
      const partition = this.spec.partitions[level]!;
      const slot = this.partitionSlots[level] as number;
      const list =
        partition.type === 'uniformRowLength'
          ? new Float64Array(0)
          : readIntList(locator, slot, partition.key, exampleIndex);
      const splits = partitionSplits(partition, list, items);
      if (typeof splits === 'string') {
        throw layoutError(
          valueKey,
          exampleIndex,
          `Feature ${this.key}: values and partitions are not aligned: ${splits}`,
        );
      }
      this.append(level + 1, splits);
      items = splits.length - 1;
    }
    this.append(0, [0, items]);
  }

  private append(level: number, splits: readonly number[]): void {
    const target = this.levels[level] as number[];
    const base = target[target.length - 1] as number;
    for (let index = 1; index < splits.length; index++) target.push(base + (splits[index] as number));
  }

  finish(): RaggedTensor {
    const rowSplits = this.levels.map((splits) => {
      if ((splits[splits.length - 1] as number) > 0x7fffffff) {
        throw new TfpipeError(
          'FEATURE_TYPE',
          `Feature ${this.key}: more than 2^31 - 1 rows or values in one batch`,
          {
            stage: 'parseExample',
            position: { field: this.key },
          },
        );
      }
      return Int32Array.from(splits);
    });
    return {
      kind: 'ragged',
      dtype: this.spec.dtype,
      data: this.values.finish(),
      shape: [this.values.length],
      rowSplits,
    };
  }
}
