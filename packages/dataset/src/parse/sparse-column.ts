import { KIND_NONE } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import { LITTLE_ENDIAN, ValueBuffer } from '../wire/value-buffer.js';
import { countValues, writeValues } from '../wire/value-writer.js';
import type { SparseSpec } from '../spec/feature-spec.js';
import type { SparseTensor } from '../tensor.js';
import { kindNumberOf, layoutError, sparseKindError } from './column.js';
import type { Column } from './column.js';
import { readIntList } from './read-int-list.js';

/**
 * A SparseFeature: each value's index comes from the index features; the batch is a sparse tensor
 * `[batch, ...size]` whose entries are sorted by index within each Example (unless `alreadySorted`).
 */
export class SparseColumn implements Column {
  private readonly kind: number;
  private values: ValueBuffer;
  private indexRows: number[] = [];
  private batchSize = 0;

  constructor(
    private readonly key: string,
    private readonly valueSlot: number,
    private readonly indexSlots: readonly number[],
    private readonly spec: SparseSpec,
  ) {
    this.kind = kindNumberOf(spec.dtype);
    this.values = new ValueBuffer(spec.dtype, 0);
  }

  start(batchSize: number): void {
    this.batchSize = batchSize;
    this.values = new ValueBuffer(this.spec.dtype, 64);
    this.indexRows = [];
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const { key, spec } = this;
    const indices = this.indexSlots.map((slot, dimension) => {
      const indexKey = spec.indexKeys[dimension] as string;
      const list = readIntList(locator, slot, indexKey, exampleIndex);
      const size = spec.size[dimension] as number;
      for (const index of list) {
        if (index < 0 || index >= size)
          throw layoutError(indexKey, exampleIndex, `Index ${index} of ${key} is out of range [0, ${size})`);
      }
      return list;
    });
    const kind = locator.resolve(this.valueSlot);
    if (kind !== KIND_NONE && kind !== this.kind)
      throw sparseKindError(spec.valueKey, exampleIndex, kind, spec.dtype);
    const count = kind === KIND_NONE ? 0 : countValues(locator, kind);
    for (const [dimension, list] of indices.entries()) {
      if (list.length !== count) {
        throw layoutError(
          spec.valueKey,
          exampleIndex,
          `${key} has ${count} values in ${spec.valueKey} but ${list.length} indices in ${spec.indexKeys[dimension]}`,
        );
      }
    }
    const first = this.values.length;
    this.values.reserve(count);
    if (count > 0) writeValues(locator, kind, this.values, first, count, spec.valueKey, exampleIndex);
    this.values.length += count;
    const order = Array.from({ length: count }, (_, position) => position);
    if (!spec.alreadySorted) order.sort((left, right) => compareIndices(indices, left, right));
    this.reorder(first, order);
    for (const position of order) {
      this.indexRows.push(exampleIndex);
      for (const list of indices) this.indexRows.push(list[position] as number);
    }
  }

  private reorder(first: number, order: readonly number[]): void {
    if (order.every((position, index) => position === index)) return;
    const data = this.values.data as Float32Array;
    const copy = data.slice(first, first + order.length);
    order.forEach((position, index) => (data[first + index] = copy[position] as number));
  }

  finish(): SparseTensor {
    const indices = new BigInt64Array(this.indexRows.length);
    const words = new Int32Array(indices.buffer);
    const low = LITTLE_ENDIAN ? 0 : 1;
    // Every index is below its size, a safe integer; most fit one word.
    this.indexRows.forEach((index, position) => {
      if (index <= 0x7fffffff) words[position * 2 + low] = index;
      else indices[position] = BigInt(index);
    });
    return {
      kind: 'sparse',
      dtype: this.spec.dtype,
      data: this.values.finish(),
      shape: [this.values.length],
      indices,
      denseShape: [this.batchSize, ...this.spec.size],
    };
  }
}

function compareIndices(indices: readonly Float64Array[], left: number, right: number): number {
  for (const list of indices) {
    const difference = (list[left] as number) - (list[right] as number);
    if (difference !== 0) return difference;
  }
  return left - right;
}
