import { KIND_NONE } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import { LITTLE_ENDIAN, ValueBuffer } from '../wire/value-buffer.js';
import { countValues, writeValues } from '../wire/value-writer.js';
import type { VarLenSpec } from '../spec/feature-spec.js';
import type { SparseTensor } from '../tensor.js';
import { kindNumberOf, sparseKindError } from './column.js';
import type { Column } from './column.js';

/** A VarLen feature: all values of the batch in one array, indexed `[example, position]`. */
export class VarLenColumn implements Column {
  private readonly kind: number;
  private values: ValueBuffer;
  private lengths = new Int32Array(0);

  constructor(
    private readonly key: string,
    private readonly slot: number,
    private readonly spec: VarLenSpec,
  ) {
    this.kind = kindNumberOf(spec.dtype);
    this.values = new ValueBuffer(spec.dtype, 0);
  }

  start(batchSize: number): void {
    this.values = new ValueBuffer(this.spec.dtype, 64);
    this.lengths = new Int32Array(batchSize);
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const kind = locator.resolve(this.slot);
    if (kind === KIND_NONE) return;
    if (kind !== this.kind) throw sparseKindError(this.key, exampleIndex, kind, this.spec.dtype);
    const count = countValues(locator, kind);
    this.values.reserve(count);
    writeValues(locator, kind, this.values, this.values.length, count, this.key, exampleIndex);
    this.values.length += count;
    this.lengths[exampleIndex] = count;
  }

  finish(): SparseTensor {
    const count = this.values.length;
    const indices = new BigInt64Array(count * 2);
    // Written as 32-bit words: both indices are small and non-negative, so each high word stays 0.
    const words = new Int32Array(indices.buffer);
    const low = LITTLE_ENDIAN ? 0 : 1;
    let value = 0;
    let longest = 0;
    this.lengths.forEach((length, example) => {
      longest = Math.max(longest, length);
      for (let position = 0; position < length; position++, value++) {
        words[value * 4 + low] = example;
        words[value * 4 + 2 + low] = position;
      }
    });
    return {
      kind: 'sparse',
      dtype: this.spec.dtype,
      data: this.values.finish(),
      shape: [count],
      indices,
      denseShape: [this.lengths.length, longest],
    };
  }
}
