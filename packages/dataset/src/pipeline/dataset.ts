import { attachReport } from '@tfpipe/core/plugin';
import type { SerializedRecord, StageReport } from '@tfpipe/core';
import { parseExample } from '../parse/parse-example.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch } from '../tensor.js';
import {
  checkCount,
  firstPass,
  invalidOption,
  type Chunks,
  type OpenChunks,
  type PassPosition,
} from './chunks.js';
import { batchChunks } from './ops/batch-chunks.js';
import { interleaveChunks } from './ops/interleave-chunks.js';
import { filterChunks, mapChunks } from './ops/map-chunks.js';
import type { MapFunction } from './ops/map-chunks.js';
import { padBatch } from './ops/pad-batch.js';
import type { Paddable, PaddedBatch, PaddedBatchOptions } from './ops/pad-batch.js';
import { prefetchChunks } from './ops/prefetch-chunks.js';
import { repeatChunks } from './ops/repeat-chunks.js';
import { passStream, randomSeed, SeededRandom } from './ops/seeded-random.js';
import { shuffleChunks } from './ops/shuffle-chunks.js';
import { shardChunks, skipChunks, takeChunks } from './ops/take-chunks.js';
import { streamOf } from './stream-of.js';
import { checkShard } from './dataset-options.js';
import type { InterleaveOptions, ParseOptions, ShardOptions, ShuffleOptions } from './dataset-options.js';

/**
 * A `tf.data.Dataset` in TypeScript: a lazy, re-iterable sequence of elements with TensorFlow's
 * operations. Each `for await` is a new pass (reading the files again, reshuffling), and the dataset is
 * also a `ReadableStream` (one pass) that pipes into core's stages. Operations return new datasets and
 * leave this one as it is.
 */
export class Dataset<T> extends ReadableStream<T> {
  readonly #open: OpenChunks<T>;
  readonly #report: () => StageReport;

  /**
   * @param open - starts a pass: the elements in chunks (see `Chunks`).
   * @param report - the reading report (records read, skipped, byte ranges lost), shared by every
   *   dataset derived from this one.
   */
  constructor(open: OpenChunks<T>, report: () => StageReport = () => ({ stage: 'dataset' })) {
    super(streamOf(open), { highWaterMark: 0 });
    this.#open = open;
    this.#report = report;
    attachReport(this, report);
  }

  /** A new pass over the elements, one at a time (each call reads the inputs again). */
  override async *[Symbol.asyncIterator](): AsyncGenerator<T, undefined, undefined> {
    for await (const chunk of this.#open(firstPass())) yield* chunk;
    return undefined;
  }

  /** A new pass over the elements in the chunks they travel in (what a fast consumer reads). */
  chunks(): Chunks<T> {
    return this.#open(firstPass());
  }

  /** What the inputs' reading has counted so far, over every pass: records, `onError: 'skip'` losses. */
  report(): StageReport {
    return this.#report();
  }

  /** A dataset of this one's chunks transformed by `transform`, keeping the report. */
  protected derive<U>(transform: (source: Chunks<T>, position: PassPosition) => Chunks<U>): Dataset<U> {
    const open = this.#open;
    return new Dataset((position) => transform(open(position), position), this.#report);
  }

  /** The first `count` elements. */
  take(count: number): Dataset<T> {
    const checked = checkCount('take', 'count', count, 0, true);
    return this.derive((source) => takeChunks(source, checked));
  }

  /** Every element after the first `count`. */
  skip(count: number): Dataset<T> {
    const checked = checkCount('skip', 'count', count, 0);
    return this.derive((source) => skipChunks(source, checked));
  }

  /** `epochs` passes in a row, each a new pass (a shuffle before it reshuffles). @default Infinity */
  repeat(epochs = Infinity): Dataset<T> {
    const checked = checkCount('repeat', 'epochs', epochs, 0, true);
    const open = this.#open;
    return new Dataset((position) => repeatChunks(open, checked, position), this.#report);
  }

  /**
   * `fn` of each element, in order, up to `parallel` calls in flight (for async work: decoding, fetching).
   * When a call fails, every element before it is handed out first, then its error; elements after it
   * are dropped, even those already computed.
   */
  map<U>(fn: MapFunction<T, U>, options: { readonly parallel?: number } = {}): Dataset<U> {
    if (typeof fn !== 'function') throw invalidOption('map', 'map needs a function');
    const parallel = checkCount('map', 'parallel', options.parallel ?? 1, 1);
    return this.derive((source) => mapChunks(source, fn, parallel));
  }

  /** The elements for which `predicate` holds; when it fails, those kept before go out first. */
  filter(predicate: (element: T, index: number) => boolean | PromiseLike<boolean>): Dataset<T> {
    if (typeof predicate !== 'function') throw invalidOption('filter', 'filter needs a function');
    return this.derive((source) => filterChunks(source, predicate));
  }

  /**
   * Arrays of `size` consecutive elements; the last may be shorter unless `dropRemainder`. A failure
   * upstream goes out after the full batches before it (the one it falls in is not handed out).
   */
  batch(size: number, options: { readonly dropRemainder?: boolean } = {}): Dataset<T[]> {
    const checked = checkCount('batch', 'size', size, 1);
    return this.derive((source) =>
      batchChunks(source, checked, options.dropRemainder ?? false, (batch) => batch),
    );
  }

  /** Batches of 1-D arrays (or objects of them) padded to one length: dense `[size, length]` tensors. */
  paddedBatch<E extends Paddable>(
    this: Dataset<E>,
    size: number,
    options: PaddedBatchOptions = {},
  ): Dataset<PaddedBatch<E>> {
    const checked = checkCount('paddedBatch', 'size', size, 1);
    if (options.paddedLength !== undefined)
      checkCount('paddedBatch', 'paddedLength', options.paddedLength, 0);
    return this.derive((source) =>
      batchChunks(source, checked, options.dropRemainder ?? false, (batch) => padBatch(batch, options)),
    );
  }

  /**
   * The fused `tf.io.parse_example`: batches of `batchSize` serialized Examples decoded straight from
   * their wire bytes into one typed tensor per spec entry, with no `Example` objects in between. Errors
   * name the feature, the file, the record index and the byte offset.
   * @throws TfpipeError `INVALID_OPTION` for `workers` > 1 here: worker threads parse only straight
   *   from a `tfrecordDataset` (Node entry)
   */
  parse<const Spec extends ExampleParseSpec>(
    this: Dataset<SerializedRecord>,
    spec: Spec,
    options: ParseOptions = {},
  ): Dataset<ParsedBatch<Spec>> {
    const parser = parseExample(spec);
    const size = checkCount('parse', 'batchSize', options.batchSize ?? 1, 1);
    if (checkCount('parse', 'workers', options.workers ?? 1, 1) > 1)
      throw invalidOption(
        'parse',
        "workers > 1 parse straight from tfrecordDataset(...) of '@tfpipe/dataset/node'; here the records come through other operations",
      );
    return this.derive((source) =>
      batchChunks(source, size, options.dropRemainder ?? false, (records) => parser.parse(records)),
    );
  }

  /** Reads up to `elements` elements ahead of the consumer, so reading overlaps the consumer's work. @default 1024 */
  prefetch(elements = 1024): Dataset<T> {
    const checked = checkCount('prefetch', 'elements', elements, 0);
    return checked === 0 ? this : this.derive((source) => prefetchChunks(source, checked));
  }

  /**
   * TensorFlow's buffered shuffle: memory is bounded by `bufferSize` elements. With a `seed` the order
   * is reproducible; `reshuffleEachEpoch` (default true) gives each pass its own order.
   */
  shuffle(bufferSize: number, options: ShuffleOptions = {}): Dataset<T> {
    const size = checkCount('shuffle', 'bufferSize', bufferSize, 1);
    const seed = options.seed ?? randomSeed();
    if (!Number.isSafeInteger(seed))
      throw invalidOption('shuffle', `seed must be a safe integer, got ${seed}`);
    const reshuffle = options.reshuffleEachEpoch ?? true;
    const iterations = new WeakMap<object, number>();
    let started = 0;
    return this.derive((source, position) => {
      let iteration = iterations.get(position.iteration);
      if (iteration === undefined) iterations.set(position.iteration, (iteration = started++));
      return shuffleChunks(
        source,
        size,
        new SeededRandom(seed, reshuffle ? passStream(iteration, position) : 0),
      );
    });
  }

  /** Every `count`-th element from `index` (TensorFlow's element sharding). Shard before you shuffle. */
  shard(options: ShardOptions): Dataset<T> {
    const { index, count } = checkShard(options);
    if (options.by === 'file')
      throw invalidOption('shard', "by: 'file' shards the files of a tfrecordDataset");
    return this.derive((source) => shardChunks(source, index, count));
  }

  /**
   * Maps each element to a dataset and interleaves them: `cycleLength` open at once, `blockLength`
   * elements from each in turn (TensorFlow's `interleave`); with `deterministic: false` an input with
   * nothing read yet gives its turn to the next one that has.
   */
  interleave<U>(
    fn: (element: T) => AsyncIterable<U> | Dataset<U>,
    options: InterleaveOptions = {},
  ): Dataset<U> {
    const cycleLength = checkCount('interleave', 'cycleLength', options.cycleLength ?? 1, 1);
    const blockLength = checkCount('interleave', 'blockLength', options.blockLength ?? 1, 1);
    const deterministic = options.deterministic ?? true;
    if (typeof deterministic !== 'boolean')
      throw invalidOption(
        'interleave',
        `deterministic must be a boolean, got ${JSON.stringify(deterministic)}`,
      );
    return this.derive((source) =>
      interleaveChunks(source, (element) => chunksOf(fn(element)), cycleLength, blockLength, deterministic),
    );
  }
}

/** The chunks of a dataset, or an async iterable's elements one per chunk. */
async function* chunksOf<U>(elements: AsyncIterable<U> | Dataset<U>): Chunks<U> {
  if (elements instanceof Dataset) yield* elements.chunks();
  else for await (const element of elements) yield [element];
}
