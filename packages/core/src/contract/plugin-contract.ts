/**
 * The plugin contract: what a source, a stage and a sink are, how rows carry their position, and how
 * a stage reports its counts to `run()`. Every `@tfpipe/*` plugin and every third-party plugin codes
 * against these types. A change here is a breaking change.
 */
import type { Position, TfpipeError } from '../errors/tfpipe-error.js';

/**
 * A source plugin: a factory that checks its options when called (throwing `INVALID_OPTION`) and
 * returns a WHATWG `ReadableStream` of rows. Rows are plain objects; each carries its position under
 * {@link POSITION} so later stages can say where a bad value came from.
 *
 * A source must:
 * - read lazily: never far ahead of its consumer (backpressure through `pull`);
 * - release every file handle when cancelled or when it errors;
 * - raise only `TfpipeError`s, with a code and the position it knows (file, line, row, byte offset);
 * - honour `onError: 'skip'` for record-level errors and report what it skipped through {@link REPORT}.
 *
 * @typeParam Options - the options object, checked when the factory is called.
 * @typeParam Row - what each chunk is; its string keys are what `buildExamples` may name.
 */
export type SourceFactory<Options, Row> = (options: Options) => ReadableStream<Row> & Partial<Reporter>;

/**
 * A stage: a factory returning a `TransformStream` from one chunk type to another
 * (`buildExamples(spec)`, `serializeExamples()`, a filter …).
 */
export type StageFactory<Options, In, Out> = (
  options: Options,
) => TransformStream<In, Out> & Partial<Reporter>;

/**
 * A sink plugin: a factory returning a `WritableStream`. When the stream closes the sink has flushed
 * and finalised everything; nothing appears under a final name before that. Aborting it removes its
 * temporary files.
 *
 * **Batches.** A chunk that is an array is a batch: several records travelling as one chunk, because
 * a WHATWG stream's cost per chunk is more than encoding a small tabular record. Records
 * themselves are never arrays. A stage that supports batches maps a batch in to a batch out
 * (`buildExamples`: rows → Examples, a skipped row just leaves the batch shorter); a sink that
 * supports them writes each record of a batch as if written alone (same bytes, same `onError`
 * policy per record, record indexes counting records, not chunks); `run()` counts a batch as its
 * length. `batch(size)` makes batches, `unbatch()` undoes them for stages that take single records.
 */
export type SinkFactory<Options, In> = (options: Options) => WritableStream<In> & Partial<Reporter>;

/** The symbol under which a row carries its {@link Position}. `Symbol.for`, so copies of core agree. */
export const POSITION: unique symbol = Symbol.for('tfpipe.position') as never;

/** A row that may carry its position. */
export type Positioned<T> = T & { readonly [POSITION]?: Position };

/** The position a row carries, if any. */
export function positionOf(value: unknown): Position | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as { [POSITION]?: Position })[POSITION];
}

/**
 * Attaches a position to a row (as a non-enumerable property, so it does not show up in
 * `Object.keys`, JSON or spreads) and returns the same object.
 */
export function withPosition<T extends object>(value: T, position: Position): Positioned<T> {
  Object.defineProperty(value, POSITION, { value: position, enumerable: false, configurable: true });
  return value;
}

/** What to do with a record-level error (a bad row, a corrupt record, a value of the wrong kind). */
export type OnError = 'fail' | 'skip';

/** The record-error options every source and stage accepts. */
export interface RecordErrorOptions {
  /**
   * `'fail'` stops the run at the first bad record; `'skip'` drops it, counts it in the summary and
   * calls {@link RecordErrorOptions.onSkip}. Fatal errors (bad options, unwritable output, disk full)
   * always fail.
   * @default 'fail'
   */
  readonly onError?: OnError;
  /** Called with each skipped record's error when `onError` is `'skip'`. */
  readonly onSkip?: (error: TfpipeError) => void;
}

/** One output file a sink wrote. */
export interface ShardSummary {
  /** Final path or name of the file. */
  readonly path: string;
  /** Records in it. */
  readonly records: number;
  /** Bytes on disk (after compression). */
  readonly bytes: number;
}

/** What one stage tells `run()` when the run ends (and while it runs, for progress). */
export interface StageReport {
  /** The stage name, e.g. `'csvSource'`. */
  readonly stage: string;
  /** Records (rows) this stage produced or consumed. */
  readonly records?: number;
  /** Records dropped under `onError: 'skip'`. */
  readonly skipped?: number;
  /** The first skipped errors (bounded), for the summary. */
  readonly skippedErrors?: readonly TfpipeError[];
  /** Bytes read (sources) or written (sinks). */
  readonly bytes?: number;
  /** Files a sink has finalised. */
  readonly shards?: readonly ShardSummary[];
  /** The shard being written now, for progress. */
  readonly currentShard?: string;
  /** Anything else worth a summary line: an inferred schema, a label map, a vocabulary … */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The symbol under which a stream exposes its report function. */
export const REPORT: unique symbol = Symbol.for('tfpipe.report') as never;

/** A stream that can report. */
export interface Reporter {
  readonly [REPORT]: () => StageReport;
}

/** Attaches a report function to a stream and returns the same stream. */
export function attachReport<T extends object>(stream: T, report: () => StageReport): T & Reporter {
  Object.defineProperty(stream, REPORT, { value: report, enumerable: false, configurable: true });
  return stream as T & Reporter;
}

/** The report of a stream, if it has one. */
export function reportOf(stream: unknown): StageReport | undefined {
  if (typeof stream !== 'object' || stream === null) return undefined;
  const report = (stream as Partial<Reporter>)[REPORT];
  return typeof report === 'function' ? report() : undefined;
}
