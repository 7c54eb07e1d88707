import { TfpipeError } from '@tfpipe/core';
import { KIND_NONE } from '../../wire/feature-locator.js';
import type { FeatureLocator } from '../../wire/feature-locator.js';
import { countValues, writeValues } from '../../wire/value-writer.js';
import type { DenseTensor } from '../../tensor.js';
import { shapeText, stepKindError } from '../column.js';
import { wireKindOf } from '../../spec/dtype.js';
import { SequenceColumn } from '../sequence-column.js';

/**
 * A FixedLenSequence feature of a SequenceExample's feature lists: every step holds exactly `shape`'s
 * number of values; the batch is `[batch, maxSteps, ...shape]`, padded, with each Example's step
 * count in `lengths()`.
 */
export class FeatureListDenseColumn extends SequenceColumn {
  override read(locator: FeatureLocator, exampleIndex: number): void {
    const stepCount = locator.steps(this.slot);
    if (stepCount < 0) {
      if (!this.spec.allowMissing) {
        throw new TfpipeError(
          'FEATURE_MISSING',
          `Feature list '${this.key}' is required but could not be found.  Did you mean to set allowMissing?`,
          { stage: 'parseSequenceExample', position: { field: this.key } },
        );
      }
      return;
    }
    for (let step = 0; step < stepCount; step++) {
      const kind = locator.resolveStep(step);
      if (kind !== KIND_NONE && kind !== this.kind) throw stepKindError(this.key, step, this.spec.dtype);
      const count = kind === KIND_NONE ? 0 : countValues(locator, kind);
      if (count !== this.stride) {
        // TensorFlow's message; its Index is the step.
        throw new TfpipeError(
          'FEATURE_TYPE',
          `Key: ${this.key}, Index: ${step}.  Number of ${wireKindOf(this.spec.dtype)} values != expected.  values size: ${count} but output shape: ${shapeText(this.spec.shape)}`,
          { stage: 'parseSequenceExample', position: { field: this.key } },
        );
      }
      this.values.reserve(count);
      writeValues(locator, kind, this.values, this.values.length, count, this.key, exampleIndex);
      this.values.length += count;
    }
    this.steps[exampleIndex] = stepCount;
  }

  /** The number of steps of each Example, as TensorFlow's sequence lengths: int64 `[batch]`. */
  lengths(): DenseTensor<'int64'> {
    return {
      kind: 'dense',
      dtype: 'int64',
      data: BigInt64Array.from(this.steps, BigInt),
      shape: [this.steps.length],
    };
  }
}
