import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import type { RecordErrorOptions, SerializedRecord, StageReport } from '@tfpipe/core';
import { BatchParser } from '../parse/parse-example.js';
import { WireBatcher, parseHere } from '../parse/wire-batcher.js';
import type { SpanHandler } from '../parse/wire-batcher.js';
import type { SpanCrcCheck } from '../parse/span-crcs.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch } from '../tensor.js';
import { crc32c, DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_LIMIT } from '@tfpipe/sink-tfrecord/web';
import type { TfRecord, TfrecordCompression } from '@tfpipe/sink-tfrecord/web';
import { arrayChunks, checkCount, invalidOption } from '../pipeline/chunks.js';
import type { Chunks } from '../pipeline/chunks.js';
import { Dataset } from '../pipeline/dataset.js';
import { checkShard } from '../pipeline/dataset-options.js';
import type { ParseOptions, ShardOptions } from '../pipeline/dataset-options.js';
import { interleaveChunks } from '../pipeline/ops/interleave-chunks.js';
import { shardChunks } from '../pipeline/ops/take-chunks.js';
import { planReads } from './plan-reads.js';
import { settleBatches } from './settle-batches.js';
import type { PlannedRead } from './plan-reads.js';
import { RecordReading } from './record-reading.js';
import type { ReadingSettings } from './record-reading.js';
import { webFiles } from './tfrecord-file.js';
import { parseWebWorkersFor } from '../workers/web-workers.js';
import { MAX_WORKERS } from '../workers/parse-workers.js';
import type { TfrecordFile, WebTfrecordInput } from './tfrecord-file.js';

/** Options of `tfrecordDataset`. */
export interface TfrecordDatasetOptions extends RecordErrorOptions {
  /** The files' compression; `'auto'` detects gzip and zlib per file from its first bytes. @default 'auto' */
  readonly compression?: TfrecordCompression | 'auto';
  /**
   * Files read at once, their records interleaved one by one in a fixed order (TensorFlow's
   * `num_parallel_reads`: `interleave` with `cycle_length` = this, `block_length` 1). 1 reads the files
   * one after another.
   * @default 1
   */
  readonly numParallelReads?: number;
  /** The largest record payload accepted, in bytes (`RECORD_TOO_LARGE` beyond). @default 268435456 (256 MiB) */
  readonly maxRecordBytes?: number;
}

/** Parses batches on `count` threads: what `parse`'s `workers` option starts (Node entry). */
export type ParseWorkersFactory = <Spec extends ExampleParseSpec>(
  spec: Spec,
  count: number,
) => SpanHandler<Promise<ParsedBatch<Spec>>>;

/** How a `TfrecordDataset` reads: its files (listed once), its reader and its shard. */
export interface TfrecordDatasetSource {
  readonly files: () => Promise<readonly TfrecordFile[]>;
  readonly reading: RecordReading;
  readonly numParallelReads: number;
  readonly shard?: ShardOptions;
  /** Starts parse workers: worker threads (Node entry) or module Web Workers (web entry). */
  readonly parseWorkers?: ParseWorkersFactory;
  /**
   * A check of a whole batch's data CRCs that beats checking each record as it is read (Node's
   * native CRC over runs of records): the one-thread parse then leaves the data CRCs to it.
   */
  readonly spanCrcs?: SpanCrcCheck;
}

const STAGE = 'tfrecordDataset';
const COMPRESSIONS = ['auto', 'none', 'gzip', 'zlib'];

/** The records of TFRecord files as a {@link Dataset}; `shard` here can shard by file or by index file. */
export class TfrecordDataset extends Dataset<TfRecord> {
  readonly #source: TfrecordDatasetSource;

  constructor(source: TfrecordDatasetSource) {
    super(
      () => readPass(source),
      () => source.reading.report(0),
    );
    this.#source = source;
  }

  /**
   * This worker's share of the records, exactly once per pass across all files: whole files
   * (`by: 'file'`), one contiguous run of records per shard read from the files' `.idx` index files
   * (`by: 'record'`, Node entry), or every `count`-th record when a file has no index. Shard before
   * shuffling, as tf.data advises.
   */
  override shard(options: ShardOptions): Dataset<TfRecord> {
    checkShard(options);
    if (this.#source.shard !== undefined) throw invalidOption('shard', 'this dataset is already sharded');
    return new TfrecordDataset({ ...this.#source, shard: options });
  }

  /**
   * The fused parse: read straight into the batches (see `Dataset.parse`), with no record object per
   * record when the files are read one after another (`numParallelReads` 1) and not sharded
   * element-wise. `workers` > 1 parses the batches on worker threads (Node entry) or module Web
   * Workers (web entry).
   * @throws TfpipeError `INVALID_OPTION` for `workers` > 1 in the web entry where there is no `Worker`
   */
  override parse<const Spec extends ExampleParseSpec>(
    this: Dataset<SerializedRecord>,
    spec: Spec,
    options: ParseOptions = {},
  ): Dataset<ParsedBatch<Spec>> {
    const source = (this as unknown as TfrecordDataset).#source;
    const size = checkCount('parse', 'batchSize', options.batchSize ?? 1, 1);
    const workers = checkCount('parse', 'workers', options.workers ?? 1, 1);
    if (workers > MAX_WORKERS)
      throw invalidOption('parse', `workers must be at most ${MAX_WORKERS}, got ${workers}`);
    const dropRemainder = options.dropRemainder ?? false;
    const deterministic = options.deterministic ?? true;
    if (typeof deterministic !== 'boolean')
      throw invalidOption('parse', `deterministic must be a boolean, got ${JSON.stringify(deterministic)}`);
    const report = (): StageReport => source.reading.report(0);
    // Compiled here with workers too: a bad spec is an INVALID_OPTION now, not a worker failing later.
    const parser = new BatchParser(spec);
    // Under 'fail' the data CRCs can be left to whoever takes the batch; 'skip' resynchronises after
    // damage, which needs them checked as the bytes are read.
    const carryCrcs = source.reading.policy.onError === 'fail';
    if (workers === 1) {
      const handler = parseHere(parser, source.spanCrcs);
      const carry = carryCrcs && source.spanCrcs !== undefined;
      return new Dataset(
        () =>
          parsePass(
            source,
            (sequential) => new WireBatcher(handler, size, carry && sequential),
            dropRemainder,
          ),
        report,
      );
    }
    if (source.parseWorkers === undefined)
      throw invalidOption('parse', "workers > 1 needs worker threads: use '@tfpipe/dataset/node'");
    const threads = source.parseWorkers(spec, workers);
    return new Dataset(
      () =>
        settleBatches(
          parsePass(
            source,
            (sequential) => new WireBatcher(threads, size, carryCrcs && sequential),
            dropRemainder,
          ),
          // Two batches per worker keep each busy while this thread reads the next.
          2 * workers,
          deterministic,
        ),
      report,
    );
  }
}

/**
 * One pass of the fused parse: each file's payloads go straight into the batcher (`sequential`: its
 * handler may be left the data CRCs), or, where records must be interleaved or strided across files,
 * the verified records of `readPass` do.
 */
async function* parsePass<Out>(
  source: TfrecordDatasetSource,
  newBatcher: (sequential: boolean) => WireBatcher<Out>,
  dropRemainder: boolean,
): Chunks<Out> {
  const files = await source.files();
  const { reads, everyNth } = await planReads(files, source.shard);
  const sequential = source.numParallelReads <= 1 && everyNth === undefined;
  const batcher = newBatcher(sequential);
  if (!sequential) {
    for await (const records of readPass(source)) {
      for (const record of records)
        batcher.add(record.data, record.file, record.recordIndex, record.byteOffset);
      const outs = batcher.take();
      if (outs.length > 0) yield outs;
    }
  } else {
    for (const planned of reads) yield* source.reading.readInto(planned.file, planned.range, batcher);
  }
  const last = batcher.flush(dropRemainder);
  if (last.length > 0) yield last;
}

async function* readPass(source: TfrecordDatasetSource): Chunks<TfRecord> {
  const files = await source.files();
  const { reads, everyNth } = await planReads(files, source.shard);
  const read = (planned: PlannedRead): Chunks<TfRecord> => source.reading.read(planned.file, planned.range);
  let records: Chunks<TfRecord>;
  if (source.numParallelReads <= 1) records = sequentially(reads, read);
  else records = interleaveChunks(arrayChunks(reads), read, source.numParallelReads, 1);
  yield* everyNth === undefined ? records : shardChunks(records, everyNth.index, everyNth.count);
}

async function* sequentially<T>(
  reads: readonly PlannedRead[],
  read: (planned: PlannedRead) => Chunks<T>,
): Chunks<T> {
  for (const planned of reads) yield* read(planned);
}

/** Checks the options shared by both entries and builds the reading they describe. */
export function datasetSource(
  files: () => Promise<readonly TfrecordFile[]>,
  options: TfrecordDatasetOptions,
  reader: Pick<ReadingSettings, 'crc' | 'crcRange' | 'decompressor'>,
  parseWorkers?: ParseWorkersFactory,
  spanCrcs?: SpanCrcCheck,
): TfrecordDatasetSource {
  if (typeof options !== 'object' || options === null)
    throw invalidOption(STAGE, 'options must be an object');
  const compression = options.compression ?? 'auto';
  if (!COMPRESSIONS.includes(compression))
    throw invalidOption(
      STAGE,
      `compression must be one of 'auto', 'none', 'gzip', 'zlib', got ${JSON.stringify(compression)}`,
    );
  const maxRecordBytes = checkCount(
    STAGE,
    'maxRecordBytes',
    options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    0,
  );
  if (maxRecordBytes > MAX_RECORD_BYTES_LIMIT)
    throw invalidOption(
      STAGE,
      `maxRecordBytes must be at most ${MAX_RECORD_BYTES_LIMIT}, got ${maxRecordBytes}`,
    );
  const numParallelReads = checkCount(STAGE, 'numParallelReads', options.numParallelReads ?? 1, 1);
  const policy = new RecordErrorPolicy(options);
  const reading = new RecordReading({ stage: STAGE, compression, maxRecordBytes, ...reader }, policy);
  let listed: Promise<readonly TfrecordFile[]> | undefined;
  return {
    files: () => (listed ??= files()),
    reading,
    numParallelReads,
    ...(parseWorkers === undefined ? {} : { parseWorkers }),
    ...(spanCrcs === undefined ? {} : { spanCrcs }),
  };
}

/**
 * `tf.data.TFRecordDataset` for the web: the records of `Blob`s, `File`s, `URL`s (fetched) or byte
 * streams, gzip and zlib detected, both CRCs of every record verified. File paths and globs are in
 * `@tfpipe/dataset/node`.
 * @throws TfpipeError `INVALID_OPTION` for a bad option or input
 */
export function tfrecordDataset(
  inputs: WebTfrecordInput | readonly WebTfrecordInput[],
  options: TfrecordDatasetOptions = {},
): TfrecordDataset {
  const files = webFiles(inputs);
  return new TfrecordDataset(
    datasetSource(() => Promise.resolve(files), options, { crc: crc32c }, parseWebWorkersFor),
  );
}
