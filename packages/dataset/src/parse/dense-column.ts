import { KIND_NONE } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import { ValueBuffer } from '../wire/value-buffer.js';
import { writeValues } from '../wire/value-writer.js';
import type { FixedLenSpec } from '../spec/feature-spec.js';
import type { DenseTensor } from '../tensor.js';
import { countError, denseKindError, kindNumberOf, requiredError } from './column.js';
import type { Column } from './column.js';

/**
 * A FixedLen feature: every Example writes exactly `shape`'s number of values straight into the
 * batch's array, or its default when the feature is missing or has no kind. An explicit empty list
 * is a wrong count even with a default, as TensorFlow's parser has it.
 */
export class DenseColumn implements Column {
  /** Values per Example: the product of the shape. */
  readonly elements: number;
  private readonly kind: number;
  private buffer: ValueBuffer;
  private batchSize = 0;

  constructor(
    private readonly key: string,
    /** The feature's slot in the parser's key list. */
    readonly slot: number,
    readonly spec: FixedLenSpec,
  ) {
    this.elements = spec.shape.reduce((product, dimension) => product * dimension, 1);
    this.kind = kindNumberOf(spec.dtype);
    this.buffer = new ValueBuffer(spec.dtype, 0);
  }

  start(batchSize: number): void {
    this.batchSize = batchSize;
    this.buffer = new ValueBuffer(this.spec.dtype, batchSize * this.elements);
    this.buffer.length = batchSize * this.elements;
  }

  /** The batch's values (a new buffer per `start`), which the dense fast path writes into. */
  get values(): ValueBuffer {
    return this.buffer;
  }

  read(locator: FeatureLocator, exampleIndex: number): void {
    const offset = exampleIndex * this.elements;
    const kind = locator.resolve(this.slot);
    if (kind === KIND_NONE) {
      const fallback = this.spec.default;
      if (fallback === undefined) throw requiredError(this.key, this.spec.dtype);
      // Byte strings are copied, so a row changed by its user leaves the default and other rows alone.
      if (Array.isArray(fallback)) {
        const data = this.buffer.data as Uint8Array[];
        for (let index = 0; index < fallback.length; index++)
          data[offset + index] = (fallback[index] as Uint8Array).slice();
      } else {
        (this.buffer.data as Float32Array).set(fallback as Float32Array, offset);
      }
      return;
    }
    if (kind !== this.kind) throw denseKindError(this.key, exampleIndex, kind, this.spec.dtype);
    const count = writeValues(locator, kind, this.buffer, offset, this.elements, this.key, exampleIndex);
    if (count !== this.elements) throw countError(this.key, exampleIndex, kind, count, this.spec.shape);
  }

  finish(): DenseTensor {
    return {
      kind: 'dense',
      dtype: this.spec.dtype,
      data: this.buffer.finish(),
      shape: [this.batchSize, ...this.spec.shape],
    };
  }
}
