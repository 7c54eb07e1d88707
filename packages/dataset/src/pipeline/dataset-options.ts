import { checkCount, invalidOption } from './chunks.js';

/** Options of `Dataset.shuffle`. */
export interface ShuffleOptions {
  /** The seed: the same seed gives the same orders. @default a random seed */
  readonly seed?: number;
  /** A new order on each pass (each `repeat` epoch); false repeats the first order. @default true */
  readonly reshuffleEachEpoch?: boolean;
}

/** Options of `shard`. */
export interface ShardOptions {
  /** This worker's shard, from 0. */
  readonly index: number;
  /** How many shards. */
  readonly count: number;
  /**
   * `'file'`: whole files, file `i` to shard `i % count` (a `tfrecordDataset` only). `'record'`: every
   * record to exactly one shard; a `tfrecordDataset` whose files all have `.idx` index files gives each
   * shard one contiguous run of records and reads only their bytes.
   * @default 'record'
   */
  readonly by?: 'file' | 'record';
}

/** Options of `Dataset.interleave`. */
export interface InterleaveOptions {
  /** Inputs open at once. @default 1 */
  readonly cycleLength?: number;
  /** Consecutive elements taken from each input in turn. @default 1 */
  readonly blockLength?: number;
  /**
   * False lets elements come out of order to avoid stalls, as tf.data's `deterministic=False`: when
   * the input whose turn it is has nothing read yet, the next open input that has takes its turn.
   * Every element still comes exactly once. The open inputs read ahead in parallel either way.
   * @default true
   */
  readonly deterministic?: boolean;
}

/** Options of `Dataset.parse`. */
export interface ParseOptions {
  /** Serialized Examples per parsed batch (the tensors' first dimension). @default 1 */
  readonly batchSize?: number;
  /** Drop a last batch shorter than `batchSize`. @default false */
  readonly dropRemainder?: boolean;
  /**
   * Workers that parse the batches of `tfrecordDataset(...).parse` while this thread reads the files:
   * worker threads in `@tfpipe/dataset/node`, module Web Workers in the main entry (browsers). 1
   * parses on this thread.
   * @default 1
   */
  readonly workers?: number;
  /**
   * With `workers`, false hands each batch out as soon as a worker has parsed it, not in the files'
   * order (as tf.data's `deterministic=False`). Every batch still comes exactly once.
   * @default true
   */
  readonly deterministic?: boolean;
}

/** Checks a shard's `index` and `count`. */
export function checkShard(options: ShardOptions): { index: number; count: number } {
  const count = checkCount('shard', 'count', options?.count, 1);
  const index = checkCount('shard', 'index', options.index, 0);
  if (index >= count) throw invalidOption('shard', `index must be below count (${count}), got ${index}`);
  if (options.by !== undefined && options.by !== 'file' && options.by !== 'record')
    throw invalidOption('shard', `by must be 'file' or 'record', got ${JSON.stringify(options.by)}`);
  return { index, count };
}
