import type { Dtype, TensorData } from './spec/dtype.js';
import type {
  ExampleParseSpec,
  FixedLenSequenceSpec,
  FixedLenSpec,
  RaggedSpec,
  SparseSpec,
  VarLenSpec,
} from './spec/feature-spec.js';

// `data` and `shape` always describe the flat array itself, so `new ort.Tensor(dtype, data, shape)`
// takes any of them; sparse and ragged tensors add what makes them sparse or ragged.

/** A dense tensor: `data` holds `shape`'s values in row-major order. */
export interface DenseTensor<D extends Dtype = Dtype> {
  readonly kind: 'dense';
  readonly dtype: D;
  readonly data: TensorData<D>;
  /** `[batch, ...featureShape]` (a sequence feature: `[batch, maxSteps, ...stepShape]`). */
  readonly shape: readonly number[];
}

/** A sparse tensor in TensorFlow's COO form. */
export interface SparseTensor<D extends Dtype = Dtype> {
  readonly kind: 'sparse';
  readonly dtype: D;
  /** The values, in row-major order of their indices. */
  readonly data: TensorData<D>;
  /** `[valueCount]`. */
  readonly shape: readonly number[];
  /** `valueCount × rank` indices, row-major: value `i`'s index is `indices[i * rank … i * rank + rank - 1]`. */
  readonly indices: BigInt64Array;
  /** The dense shape: `[batch, maxLength]` (VarLen) or `[batch, ...size]` (Sparse). */
  readonly denseShape: readonly number[];
}

/** A ragged tensor: flat values and one row-splits array per ragged dimension, outermost (the batch) first. */
export interface RaggedTensor<D extends Dtype = Dtype> {
  readonly kind: 'ragged';
  readonly dtype: D;
  /** The flat values. */
  readonly data: TensorData<D>;
  /** `[valueCount]`. */
  readonly shape: readonly number[];
  /**
   * `rowSplits[0]` has `batch + 1` offsets into the rows of the next level (or into `data` when
   * there is one level); each further array splits the level below it; the last one splits `data`.
   */
  readonly rowSplits: readonly Int32Array[];
}

/** Any parsed tensor. */
export type Tensor<D extends Dtype = Dtype> = DenseTensor<D> | SparseTensor<D> | RaggedTensor<D>;

/** The tensor a feature spec parses to. */
export type TensorOf<S> =
  S extends FixedLenSpec<infer D>
    ? DenseTensor<D>
    : S extends FixedLenSequenceSpec<infer D>
      ? DenseTensor<D>
      : S extends VarLenSpec<infer D>
        ? SparseTensor<D>
        : S extends SparseSpec<infer D>
          ? SparseTensor<D>
          : S extends RaggedSpec<infer D>
            ? RaggedTensor<D>
            : never;

/** A parsed batch: one tensor per name of the spec, typed by the spec. */
export type ParsedBatch<Spec extends ExampleParseSpec> = { readonly [K in keyof Spec]: TensorOf<Spec[K]> };
