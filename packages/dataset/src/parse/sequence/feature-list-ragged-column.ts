import { KIND_NONE } from '../../wire/feature-locator.js';
import type { FeatureLocator } from '../../wire/feature-locator.js';
import { ValueBuffer } from '../../wire/value-buffer.js';
import { countValues, writeValues } from '../../wire/value-writer.js';
import type { RaggedSpec } from '../../spec/feature-spec.js';
import type { RaggedTensor } from '../../tensor.js';
import { kindNumberOf, stepKindError } from '../column.js';
import type { Column } from '../column.js';

/** A Ragged feature (without partitions) of the feature lists: values split into steps, steps into Examples. */
export class FeatureListRaggedColumn implements Column {
  private readonly kind: number;
  private values: ValueBuffer;
  private exampleSplits: number[] = [0];
  private stepSplits: number[] = [0];

  constructor(
    private readonly key: string,
    private readonly slot: number,
    private readonly spec: RaggedSpec,
  ) {
    this.kind = kindNumberOf(spec.dtype);
    this.values = new ValueBuffer(spec.dtype, 0);
  }

  start(): void {
    this.values = new ValueBuffer(this.spec.dtype, 64);
    this.exampleSplits = [0];
    this.stepSplits = [0];
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const stepCount = Math.max(0, locator.steps(this.slot));
    for (let step = 0; step < stepCount; step++) {
      const kind = locator.resolveStep(step);
      if (kind !== KIND_NONE && kind !== this.kind) throw stepKindError(this.key, step, this.spec.dtype);
      const count = kind === KIND_NONE ? 0 : countValues(locator, kind);
      this.values.reserve(count);
      if (count > 0)
        writeValues(locator, kind, this.values, this.values.length, count, this.key, exampleIndex);
      this.values.length += count;
      this.stepSplits.push(this.values.length);
    }
    this.exampleSplits.push(this.stepSplits.length - 1);
  }

  finish(): RaggedTensor {
    return {
      kind: 'ragged',
      dtype: this.spec.dtype,
      data: this.values.finish(),
      shape: [this.values.length],
      rowSplits: [Int32Array.from(this.exampleSplits), Int32Array.from(this.stepSplits)],
    };
  }
}
