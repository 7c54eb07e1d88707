import { KIND_NONE } from '../../wire/feature-locator.js';
import type { FeatureLocator } from '../../wire/feature-locator.js';
import { ValueBuffer } from '../../wire/value-buffer.js';
import { countValues, writeValues } from '../../wire/value-writer.js';
import type { VarLenSpec } from '../../spec/feature-spec.js';
import type { SparseTensor } from '../../tensor.js';
import { kindNumberOf, stepKindError } from '../column.js';
import type { Column } from '../column.js';

/** A VarLen feature of the feature lists: a sparse tensor `[batch, maxSteps, maxLength]`. */
export class FeatureListSparseColumn implements Column {
  private readonly kind: number;
  private values: ValueBuffer;
  private indexRows: number[] = [];
  private batchSize = 0;
  private maxSteps = 0;
  private maxLength = 0;

  constructor(
    private readonly key: string,
    private readonly slot: number,
    private readonly spec: VarLenSpec,
  ) {
    this.kind = kindNumberOf(spec.dtype);
    this.values = new ValueBuffer(spec.dtype, 0);
  }

  start(batchSize: number): void {
    this.batchSize = batchSize;
    this.values = new ValueBuffer(this.spec.dtype, 64);
    this.indexRows = [];
    this.maxSteps = 0;
    this.maxLength = 0;
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const stepCount = locator.steps(this.slot);
    this.maxSteps = Math.max(this.maxSteps, stepCount);
    for (let step = 0; step < stepCount; step++) {
      const kind = locator.resolveStep(step);
      if (kind === KIND_NONE) continue;
      if (kind !== this.kind) throw stepKindError(this.key, step, this.spec.dtype);
      const count = countValues(locator, kind);
      this.values.reserve(count);
      writeValues(locator, kind, this.values, this.values.length, count, this.key, exampleIndex);
      this.values.length += count;
      this.maxLength = Math.max(this.maxLength, count);
      for (let position = 0; position < count; position++) this.indexRows.push(exampleIndex, step, position);
    }
  }

  finish(): SparseTensor {
    return {
      kind: 'sparse',
      dtype: this.spec.dtype,
      data: this.values.finish(),
      shape: [this.values.length],
      indices: BigInt64Array.from(this.indexRows, BigInt),
      denseShape: [this.batchSize, this.maxSteps, this.maxLength],
    };
  }
}
