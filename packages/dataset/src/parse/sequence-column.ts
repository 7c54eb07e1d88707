import { allocateData, EMPTY_BYTES } from '../spec/dtype.js';
import type { TensorData } from '../spec/dtype.js';
import { KIND_NONE } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import { ValueBuffer } from '../wire/value-buffer.js';
import { countValues, writeValues } from '../wire/value-writer.js';
import type { FixedLenSequenceSpec } from '../spec/feature-spec.js';
import type { DenseTensor } from '../tensor.js';
import { denseKindError, kindNumberOf, strideError } from './column.js';
import type { Column } from './column.js';

/**
 * A FixedLenSequence feature in an Example: each Example holds a whole number of steps of `shape`;
 * the batch is `[batch, maxSteps, ...shape]`, shorter Examples padded with the default.
 */
export class SequenceColumn implements Column {
  protected readonly stride: number;
  protected readonly kind: number;
  protected values: ValueBuffer;
  protected steps = new Int32Array(0);

  constructor(
    protected readonly key: string,
    protected readonly slot: number,
    protected readonly spec: FixedLenSequenceSpec,
  ) {
    this.stride = spec.shape.reduce((product, dimension) => product * dimension, 1);
    this.kind = kindNumberOf(spec.dtype);
    this.values = new ValueBuffer(spec.dtype, 0);
  }

  start(batchSize: number): void {
    this.values = new ValueBuffer(this.spec.dtype, 64);
    this.steps = new Int32Array(batchSize);
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const kind = locator.resolve(this.slot);
    if (kind === KIND_NONE) return;
    if (kind !== this.kind) throw denseKindError(this.key, exampleIndex, kind, this.spec.dtype);
    const count = countValues(locator, kind);
    if (count % this.stride !== 0) throw strideError(this.key, exampleIndex, kind, count, this.spec.shape);
    this.values.reserve(count);
    writeValues(locator, kind, this.values, this.values.length, count, this.key, exampleIndex);
    this.values.length += count;
    this.steps[exampleIndex] = count / this.stride;
  }

  finish(): DenseTensor {
    const batchSize = this.steps.length;
    const maxSteps = this.steps.reduce((longest, steps) => Math.max(longest, steps), 0);
    const row = maxSteps * this.stride;
    const data = allocateData(this.spec.dtype, batchSize * row);
    const padding = this.spec.default;
    const values = this.values.data;
    let read = 0;
    for (let example = 0; example < batchSize; example++) {
      const length = (this.steps[example] as number) * this.stride;
      if (Array.isArray(data)) {
        const strings = values as Uint8Array[];
        const fill = (padding as Uint8Array[] | undefined)?.[0] ?? EMPTY_BYTES;
        for (let index = 0; index < row; index++)
          data[example * row + index] = index < length ? (strings[read + index] as Uint8Array) : fill;
      } else {
        const typed = data as Exclude<TensorData<'float32'>, never>;
        typed.set((values as Float32Array).subarray(read, read + length), example * row);
        if (padding !== undefined && length < row)
          typed.fill((padding as Float32Array)[0] as number, example * row + length, (example + 1) * row);
      }
      read += length;
    }
    return { kind: 'dense', dtype: this.spec.dtype, data, shape: [batchSize, maxSteps, ...this.spec.shape] };
  }
}
