import { TfpipeError } from '@tfpipe/core';
import type { SerializedRecord } from '@tfpipe/core';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch, Tensor } from '../tensor.js';
import { FeatureLocator } from '../wire/feature-locator.js';
import type { Column } from './column.js';
import { compileSpec } from './compile-spec.js';
import { DenseRecordReader } from './dense-record-reader.js';
import { locateError, recordPosition } from './record-position.js';
import { attachPositions, copiedPositions } from '../batch-positions.js';
import type { BatchOrigin } from './record-position.js';

/** A compiled parse spec: call `parse` with each batch of serialized Examples. */
export interface ExampleParser<Spec extends ExampleParseSpec> {
  /** The spec it parses with. */
  readonly spec: Spec;
  /**
   * Parses a batch of serialized `tf.train.Example`s straight into one tensor per spec entry. A
   * record is its bytes, or an object `{ data, file, recordIndex, byteOffset }` as `tfrecordSource`
   * yields; errors carry that position (else `origin`'s).
   * @throws TfpipeError `FEATURE_MISSING`, `FEATURE_TYPE`, `INT64_RANGE` or `PROTO_DECODE` naming the
   *   feature, the record and the file
   */
  parse(records: readonly SerializedRecord[], origin?: BatchOrigin): ParsedBatch<Spec>;
}

/** A record whose bytes the wire batcher fills in only when the general parser needs them. */
export interface SpanRecord {
  data: Uint8Array;
  file: string;
  recordIndex: number;
  byteOffset: number;
}

/**
 * The parser behind `parseExample` and the dataset's fused path: the dense fast path
 * ({@link DenseRecordReader}) for each record it can take, the general locator and columns for the rest.
 */
export class BatchParser<Spec extends ExampleParseSpec> implements ExampleParser<Spec> {
  readonly #columns: readonly (readonly [string, Column])[];
  readonly #locator: FeatureLocator;
  readonly #dense: DenseRecordReader | undefined;

  constructor(readonly spec: Spec) {
    const { keys, columns } = compileSpec(spec);
    this.#columns = columns;
    this.#locator = new FeatureLocator(keys);
    this.#dense = DenseRecordReader.of(
      keys,
      columns.map(([, column]) => column),
    );
  }

  parse(records: readonly SerializedRecord[], origin: BatchOrigin = {}): ParsedBatch<Spec> {
    this.#start(records.length);
    const dense = this.#dense;
    for (let batchIndex = 0; batchIndex < records.length; batchIndex++) {
      const record = records[batchIndex]!;
      let bytes = record instanceof Uint8Array ? record : record.data;
      if (dense !== undefined && bytes instanceof Uint8Array) {
        // A Buffer (a Uint8Array subclass) is read through a plain view, as WireReader.reset does.
        if (bytes.constructor !== Uint8Array)
          bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
        if (dense.read(bytes, 0, bytes.length, batchIndex)) continue;
      }
      this.#general(record, batchIndex, origin);
    }
    const batch = this.#finish();
    const held = records.slice(); // the caller may refill its array for the next batch
    attachPositions(batch, (batchIndex) => recordPosition(held[batchIndex]!, batchIndex, origin));
    return batch;
  }

  /**
   * Parses `count` records lying back to back in `bytes` (record `i` ends at `ends[i]`); `places[i]`
   * gives its position, and its `data` is set only when the general parser reads it. `lend`: `bytes`
   * is the batch's to keep (never written again), so byte strings over 1 KiB of the dense path are
   * views of it ({@link lentBytes} then says so).
   */
  parseSpans(
    bytes: Uint8Array,
    ends: ArrayLike<number>,
    count: number,
    places: readonly SpanRecord[],
    lend = false,
  ): ParsedBatch<Spec> {
    this.#start(count, lend);
    const dense = this.#dense;
    let start = 0;
    for (let batchIndex = 0; batchIndex < count; batchIndex++) {
      const end = ends[batchIndex]!;
      if (dense === undefined || !dense.read(bytes, start, end, batchIndex)) {
        const place = places[batchIndex]!;
        place.data = bytes.subarray(start, end);
        this.#general(place, batchIndex, {});
      }
      start = end;
    }
    const batch = this.#finish();
    attachPositions(batch, copiedPositions(places, count));
    return batch;
  }

  /** Whether the last `parseSpans` with `lend` kept views of its bytes in the batch. */
  get lentBytes(): boolean {
    return this.#dense?.lent ?? false;
  }

  #start(batchSize: number, lend = false): void {
    for (const [name, column] of this.#columns) {
      try {
        column.start(batchSize);
      } catch (error) {
        // A typed array past the engine's length limit, or memory refused.
        if (!(error instanceof RangeError)) throw error;
        throw new TfpipeError(
          'INVALID_OPTION',
          `feature ${name}: a batch of ${batchSize} Examples does not fit in memory`,
          {
            stage: 'parseExample',
            fatal: true,
            position: { field: name },
            reason: `${error.message}; use a smaller batch size or shape`,
            cause: error,
          },
        );
      }
    }
    this.#dense?.bind(lend);
  }

  #general(record: SerializedRecord, batchIndex: number, origin: BatchOrigin): void {
    let field: string | undefined;
    try {
      const bytes = record instanceof Uint8Array ? record : record.data;
      if (!(bytes instanceof Uint8Array))
        throw new TfpipeError('PROTO_DECODE', 'malformed Example', {
          reason: 'a record must be a Uint8Array',
        });
      this.#locator.locate(bytes);
      for (const [name, column] of this.#columns) {
        field = name;
        column.read(this.#locator, batchIndex);
      }
    } catch (error) {
      throw locateError(error, recordPosition(record, batchIndex, origin), field, 'parseExample');
    }
  }

  #finish(): ParsedBatch<Spec> {
    this.#dense?.finish();
    const batch = Object.create(null) as Record<string, Tensor>;
    for (const [name, column] of this.#columns) batch[name] = column.finish();
    return batch as ParsedBatch<Spec>;
  }
}

/**
 * `tf.io.parse_example` in TypeScript: compiles `spec` once, then decodes each batch of serialized
 * Examples straight from their wire bytes into the batch's typed arrays, with TensorFlow's semantics
 * (missing and kindless features, defaults, counts, kinds) and its error messages.
 * @throws TfpipeError `INVALID_OPTION` for a bad spec
 */
export function parseExample<const Spec extends ExampleParseSpec>(spec: Spec): ExampleParser<Spec> {
  const parser = new BatchParser(spec);
  return { spec, parse: (records, origin) => parser.parse(records, origin) };
}
