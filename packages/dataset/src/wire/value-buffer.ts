import { allocateData } from '../spec/dtype.js';
import type { Dtype, TensorData } from '../spec/dtype.js';

/** True on little-endian platforms, where an int64's low 32-bit word comes first in memory. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The growing values of one output tensor. Int64 values are written as two 32-bit words through
 * `words`, a view of the `BigInt64Array`'s memory, so no bigint is made per value.
 */
export class ValueBuffer<D extends Dtype = Dtype> {
  /** Values written so far. */
  length = 0;
  data: TensorData<D>;
  /** The int64 data as 32-bit words (dtype `'int64'` only). */
  words: Int32Array | undefined;

  constructor(
    readonly dtype: D,
    capacity: number,
  ) {
    this.data = allocateData(dtype, capacity);
    this.words = this.wordsOf(this.data);
  }

  /** Makes room for `extra` more values. */
  reserve(extra: number): void {
    if (this.dtype === 'string') return;
    const data = this.data as Exclude<TensorData<Dtype>, Uint8Array[]>;
    const needed = this.length + extra;
    if (needed <= data.length) return;
    const grown = allocateData(this.dtype, Math.max(needed, data.length * 2, 16));
    (grown as typeof data).set(data.subarray(0, this.length) as never);
    this.data = grown;
    this.words = this.wordsOf(grown);
  }

  /** The values written, in an array of exactly their number. */
  finish(): TensorData<D> {
    const data = this.data;
    if (data.length === this.length) return data;
    if (Array.isArray(data)) {
      data.length = this.length;
      return data;
    }
    return data.slice(0, this.length) as TensorData<D>;
  }

  private wordsOf(data: TensorData<Dtype>): Int32Array | undefined {
    return data instanceof BigInt64Array
      ? new Int32Array(data.buffer, data.byteOffset, data.length * 2)
      : undefined;
  }
}
