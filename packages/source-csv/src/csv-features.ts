import { RecordErrorPolicy, attachReport, PositionedRecord } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';
import type { Example, Feature } from '@tfpipe/core';
import type { Positioned, Reporter } from '@tfpipe/core/plugin';
import { compileColumn } from './cell-converter.js';
import type { CellConverter } from './cell-converter.js';
import { CsvBytePath, DEFAULT_CHUNK_BYTES, byteParsable } from './csv-byte-path.js';
import { CsvRowEncoder, FEATURES_STAGE, completeColumns, csvValueError } from './csv-row-encoder.js';
import { CsvRecordReader } from './csv-record-reader.js';
import { CsvThreadHelper } from './csv-thread-helper.js';
import { CsvIndexThread } from './csv-index-thread.js';
import { READ_CHUNK_BYTES } from './file-input.js';
import type { CsvRecord } from './csv-record-reader.js';
import type { CsvMissing, CsvSchema, CsvSchemaInput } from './csv-schema.js';
import { RecordStream, csvReaderReport } from './csv-source.js';
import { checkCsvFeaturesOptions } from './csv-options-schema.js';
import { resolveCsvSourceOptions } from './csv-source-options.js';
import type { CsvSourceOptions, ResolvedCsvSourceOptions } from './csv-source-options.js';
import { CellValueError } from './csv-values.js';
import type { CsvKind } from './csv-values.js';
import { SchemaInference } from './schema-inference.js';

/** Options of {@link csvFeatures} and {@link csvToExamples}: every {@link CsvSourceOptions} option, plus: */
export interface CsvFeaturesOptions extends CsvSourceOptions {
  /**
   * Column → kind or spec (the other columns are inferred), or a full schema from `loadSchema` /
   * a previous run's `details.schema` (then nothing is inferred).
   * @default every column inferred
   */
  readonly schema?: CsvSchemaInput;
  /**
   * Data rows sampled to infer kinds; the sampled rows are kept and written, not dropped. `'all'` (or
   * `Infinity`) reads every file once first, then again to convert: files only, a stream cannot be
   * read twice. Rows past the sample that do not fit are `CSV_VALUE` record errors.
   * @default 1000
   */
  readonly inferRows?: number | 'all';
  /** What empty cells become in columns that do not say. @default 'omit' */
  readonly missing?: CsvMissing;
  /**
   * The label column: it must exist, an empty label is a `CSV_VALUE` error (unless its spec sets
   * `missing`), and string labels get a vocabulary built from the whole input (files only).
   */
  readonly label?: string;
  /**
   * `csvToExamples` from files: after the first chunk, read records and plain cells (integers,
   * decimals, bytes) straight from the file's bytes instead of decoding the text first. The
   * Examples, positions and errors are the same either way: records the byte path does not handle
   * (other quoting, comments, bad rows, invalid UTF-8) go through the text parser. `false` uses the
   * text parser for everything. `csvFeatures` and streams always use the text parser.
   * @default true
   */
  readonly byteParser?: boolean;
  /**
   * Bytes the byte parser takes per step (cut after a newline); files are also read in steps of at
   * most this. @default 262144 (256 KiB; reads of 64 KiB)
   */
  readonly chunkBytes?: number;
  /**
   * `csvToExamples` from files: threads that convert a file's records. With `2`, a worker thread
   * converts some of the byte parser's chunks while the calling thread converts the others and hands
   * every Example on in file order; a chunk the thread cannot take exactly as the calling thread would
   * (a record running over its end, a record error, an encoding problem) is converted again on the
   * calling thread, so the Examples, positions, errors and skipped records are the same as with `1`.
   * `'auto'` uses the thread for files with at least 4 MiB left after the sample when a core is to
   * spare (four or more cores, and the last minute's load average below their number less one);
   * otherwise, for such files while the load average is below the number of cores, a worker thread
   * only finds the records and cells of each chunk (the index thread) and the calling thread
   * converts them: the same Examples, positions and errors again.
   * Streams and FIFOs always use the calling thread. A thread that fails while it holds a chunk
   * is a fatal `INTERNAL` error; chunks it had not started are converted on the calling thread.
   * @default 'auto'
   */
  readonly threads?: 1 | 2 | 'auto';
}

/** A row of features: feature name → `Feature`, empty cells left out (or as `missing` says); position attached. */
export type CsvFeatureRow = Positioned<Record<string, Feature>>;

const STAGE = FEATURES_STAGE;

function invalid(message: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', message, { stage: STAGE, fatal: true });
}

/** `csvFeatures` / `csvToExamples` options that ask for batches: the stream's chunks are arrays. */
export type CsvFeaturesBatchOptions = CsvFeaturesOptions & { readonly batchSize: number };

/**
 * Reads CSV into typed feature rows: the schema is explicit, loaded, or inferred from the first
 * `inferRows` rows with TFX's rules (int64 → float → bytes). Cells are converted here, so a bad
 * value's error names its file, line, CSV column and field. The resolved schema is in the report's
 * `details.schema` (JSON-serialisable: save it with `saveSchema` and pass it back). With `batchSize`
 * the chunks are arrays of rows.
 */
export function csvFeatures(options: CsvFeaturesBatchOptions): ReadableStream<CsvFeatureRow[]> & Reporter;
export function csvFeatures(
  options: CsvFeaturesOptions & { readonly batchSize?: undefined },
): ReadableStream<CsvFeatureRow> & Reporter;
export function csvFeatures(
  options: CsvFeaturesOptions,
): ReadableStream<CsvFeatureRow | CsvFeatureRow[]> & Reporter;
export function csvFeatures(
  options: CsvFeaturesOptions,
): ReadableStream<CsvFeatureRow | CsvFeatureRow[]> & Reporter {
  // The converter fills the positioned row itself: no copy.
  const engine = new FeatureEngine(
    options,
    'features',
    (record) =>
      new PositionedRecord(record.file, record.row, record.line) as unknown as Record<string, Feature>,
  );
  return engineStream(
    engine,
    options,
    STAGE,
    () => engine.next(),
    (features) => features as CsvFeatureRow,
  );
}

/**
 * `csvFeatures` with each row wrapped as a `tf.train.Example` (position attached): the one-call way to
 * go from CSV to `tfrecordSink`. With `batchSize` the chunks are arrays of Examples, which
 * `tfrecordSink` writes as they come.
 */
export function csvToExamples(
  options: CsvFeaturesBatchOptions,
): ReadableStream<Positioned<Example>[]> & Reporter;
export function csvToExamples(
  options: CsvFeaturesOptions & { readonly batchSize?: undefined },
): ReadableStream<Positioned<Example>> & Reporter;
export function csvToExamples(
  options: CsvFeaturesOptions,
): ReadableStream<Positioned<Example> | Positioned<Example>[]> & Reporter;
export function csvToExamples(
  options: CsvFeaturesOptions,
): ReadableStream<Positioned<Example> | Positioned<Example>[]> & Reporter {
  const engine = new FeatureEngine(options, 'examples');
  return engineStream(
    engine,
    options,
    'csvToExamples',
    () => engine.nextExamples(),
    (example) => example,
  );
}

/**
 * Infers (or checks and completes) the schema without converting anything: reads the sample (or every
 * file for `inferRows: 'all'` and built vocabularies), then closes the input.
 */
export async function inferCsvSchema(options: CsvFeaturesOptions): Promise<CsvSchema> {
  const engine = new FeatureEngine(options);
  try {
    return await engine.prepare();
  } finally {
    await engine.cancel();
  }
}

/**
 * The `buildExamples` spec for rows of {@link csvFeatures}: feature name → kind. The rows already
 * hold `Feature`s, which the builder passes through; the spec documents the kinds and types the pipeline.
 */
export function csvExampleSpec(schema: CsvSchema): Record<string, CsvKind> {
  const spec: Record<string, CsvKind> = {};
  for (const [name, column] of Object.entries(schema.columns)) spec[name] = column.kind;
  return spec;
}

/** An engine's converted rows as a stream: batched as `options` says, counted, reported as `stage`. */
function engineStream<Item, Out>(
  engine: FeatureEngine,
  options: CsvFeaturesOptions,
  stage: string,
  next: () => Promise<readonly Item[] | undefined>,
  wrap: (item: Item) => Out,
): ReadableStream<Out | Out[]> & Reporter {
  const rows = new RecordStream<Item, Out>(
    next,
    wrap,
    () => engine.cancel(),
    resolveCsvSourceOptions(options).batchSize,
  );
  engine.counted = rows;
  return attachReport(rows.stream, () => engine.report(stage));
}

class FeatureEngine {
  readonly #options: CsvFeaturesOptions;
  readonly #resolved: ResolvedCsvSourceOptions;
  readonly #policy: RecordErrorPolicy;
  readonly #reader: CsvRecordReader;
  readonly #inferRows: number;
  #schema: CsvSchema | undefined;
  /** The schema's vocabularies, found once: the report is read on every progress tick. */
  #vocabularies: Record<string, readonly string[]> | undefined;
  /** `'examples'`: rows are encoded by {@link #rowEncoder}. */
  readonly #mode: 'features' | 'examples';
  #converters: CellConverter[] = [];
  /** Encodes rows (`'examples'`). */
  #rowEncoder: CsvRowEncoder | undefined;
  #names: readonly string[] = [];
  /** A column is named `__proto__`: assign with defineProperty. */
  #special = false;
  readonly #container: (record: CsvRecord) => Record<string, Feature>;
  #indexes: readonly number[] = [];
  #buffered: CsvRecord[] = [];
  #sampled = 0;
  readonly #byteParser: boolean;
  readonly #chunkBytes: number;
  /** Converts the rest of files from their bytes (`'examples'` mode). */
  #bytePath: CsvBytePath | undefined;
  /** Converts some of the byte path's chunks on a worker thread, when `threads` allows. */
  #helper: CsvThreadHelper | undefined;
  /** Finds the records of the byte path's chunks on a worker thread, when `threads` is `'auto'` and the other thread is not used. */
  #indexer: CsvIndexThread | undefined;
  /** Counts the rows handed to the consumer. */
  counted: { readonly records: number } = { records: 0 };

  /**
   * @param mode - `'features'` converts rows to Features ({@link next}), `'examples'` encodes them
   *   ({@link nextExamples}); inference alone works in either
   * @param container - makes the object a row's features are written into
   */
  constructor(
    options: CsvFeaturesOptions,
    mode: 'features' | 'examples' = 'features',
    container: (record: CsvRecord) => Record<string, Feature> = () => ({}),
  ) {
    this.#options = options;
    this.#mode = mode;
    this.#container = container;
    checkCsvFeaturesOptions(options);
    this.#resolved = resolveCsvSourceOptions(options);
    this.#policy = new RecordErrorPolicy(options);
    this.#byteParser = options.byteParser ?? true;
    this.#chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    // Small steps read small: so the byte path takes over small files too (tests).
    this.#reader = new CsvRecordReader(
      this.#resolved,
      this.#policy,
      Math.min(READ_CHUNK_BYTES, this.#chunkBytes),
    );
    const inferRows = options.inferRows ?? 1000;
    this.#inferRows = inferRows === 'all' ? Infinity : inferRows;
    const buildsVocabulary = Object.values(options.schema ?? {}).some(
      (spec) =>
        typeof spec === 'object' &&
        spec !== null &&
        (spec as { vocabulary?: unknown }).vocabulary === 'build',
    );
    if (this.#resolved.stream !== undefined && (this.#inferRows === Infinity || buildsVocabulary)) {
      throw invalid(
        `inferRows 'all' and vocabulary 'build' read the input twice, which a stream cannot be; give paths, or a schema`,
      );
    }
  }

  async prepare(): Promise<CsvSchema> {
    if (this.#schema !== undefined) return this.#schema;
    const first = await this.#reader.next();
    const plan = this.#reader.plan;
    if (plan === undefined)
      return this.#finish(new SchemaInference({ header: [], indexes: [], names: [] }, undefined, ''));
    this.#buffered = first ?? [];
    const inference = new SchemaInference(plan, this.#options.schema, this.#reader.files[0] ?? '');
    const labelIndex = this.#labelIndex(plan.names);
    if (inference.needsSample && this.#inferRows === Infinity) {
      if (labelIndex >= 0 && inference.declared[labelIndex]!.kind === undefined)
        inference.collect([labelIndex]);
      inference.collect(this.#buildIndexes(inference));
      await this.#fullPass(inference);
    } else if (inference.needsSample) {
      let batch: CsvRecord[] | undefined = this.#buffered;
      for (const record of batch.slice(0, this.#inferRows)) inference.add(record);
      while (inference.rows < this.#inferRows && (batch = await this.#reader.next()) !== undefined) {
        for (const record of batch) this.#buffered.push(record);
        for (const record of batch.slice(0, this.#inferRows - inference.rows)) inference.add(record);
      }
    }
    this.#sampled = inference.rows;
    if (labelIndex >= 0) this.#prepareLabel(inference, labelIndex);
    const builds = this.#buildIndexes(inference).filter((index) => !inference.collected.has(index));
    if (builds.length > 0) {
      if (this.#resolved.stream !== undefined) {
        throw invalid(
          `column ${plan.names[builds[0]!]} needs a vocabulary built from the whole input, which a stream cannot give; list it in the schema`,
        );
      }
      inference.collect(builds);
      await this.#fullPass(inference, true);
    }
    return this.#finish(inference);
  }

  #labelIndex(names: readonly string[]): number {
    const label = this.#options.label;
    if (label === undefined) return -1;
    const index = names.indexOf(label);
    if (index < 0) {
      throw new TfpipeError('CSV_HEADER', `the label column ${JSON.stringify(label)} is not in the CSV`, {
        stage: STAGE,
        fatal: true,
        position: { file: this.#reader.files[0] ?? '', field: label },
        reason: `columns are ${names.join(', ')}`,
      });
    }
    return index;
  }

  #prepareLabel(inference: SchemaInference, index: number): void {
    const spec = inference.declared[index]!;
    const kind = inference.kinds[index];
    const next = { ...spec, missing: spec.missing ?? 'error' };
    if ((kind === undefined || kind === 'bytes') && spec.vocabulary === undefined) {
      Object.assign(next, { vocabulary: 'build', kind: 'int64' });
      inference.kinds[index] = 'int64';
    }
    inference.declared[index] = next;
  }

  #buildIndexes(inference: SchemaInference): number[] {
    return inference.declared.flatMap((spec, index) => (spec.vocabulary === 'build' ? [index] : []));
  }

  /** Reads every file once with a separate reader (its skipped rows are counted by the real pass). */
  async #fullPass(inference: SchemaInference, collectOnly = false): Promise<void> {
    const policy = new RecordErrorPolicy({ onError: this.#policy.onError });
    const reader = new CsvRecordReader({ ...this.#resolved, delimiter: this.#reader.delimiter }, policy);
    const kinds = [...inference.kinds];
    let batch: CsvRecord[] | undefined;
    while ((batch = await reader.next()) !== undefined) for (const record of batch) inference.add(record);
    // A loop, not splice(...kinds): spreading one argument per column overflows the stack when wide.
    if (collectOnly) for (const [index, kind] of kinds.entries()) inference.kinds[index] = kind;
  }

  #finish(inference: SchemaInference): CsvSchema {
    const schema = inference.schema(this.#options.missing ?? 'omit');
    this.#schema = schema;
    this.#vocabularies = undefined;
    this.#names = inference.plan.names;
    this.#special = this.#names.includes('__proto__');
    this.#indexes = inference.plan.indexes;
    if (this.#mode === 'features') {
      this.#converters = completeColumns(schema, this.#names).map((column) => compileColumn(column));
    } else {
      this.#rowEncoder = new CsvRowEncoder(schema, inference.plan);
      // Files' rest goes to the byte path, once the sample (if any) is read.
      if (this.#byteParser && inference.plan.header.length > 0) {
        const options = { ...this.#resolved, stream: undefined, delimiter: this.#reader.delimiter };
        if (byteParsable(options)) {
          this.#bytePath = new CsvBytePath(
            options,
            inference.plan,
            this.#rowEncoder,
            this.#chunkBytes,
            this.#policy,
          );
          const threads = this.#options.threads ?? 'auto';
          if (threads !== 1) {
            const settings = { options, plan: inference.plan, schema, chunkBytes: this.#chunkBytes };
            this.#helper = new CsvThreadHelper(settings, threads);
          }
          if (threads === 'auto') {
            this.#indexer = new CsvIndexThread({
              delimiter: options.delimiter!.charCodeAt(0),
              quote: options.quote.charCodeAt(0),
              fieldCount: inference.plan.header.length,
              skipEmptyLines: options.skipEmptyLines,
              chunkBytes: this.#chunkBytes,
            });
          }
        }
      }
    }
    return schema;
  }

  /** The next converted rows (at least one), or undefined at the end. */
  next(): Promise<Record<string, Feature>[] | undefined> {
    return this.#nextConverted((record) => this.#convert(record));
  }

  /** The next encoded rows (at least one), positioned, or undefined at the end. */
  nextExamples(): Promise<Positioned<Example>[] | undefined> {
    return this.#nextConverted((record) => this.#encodeRecord(record));
  }

  async #nextConverted<Out>(convert: (record: CsvRecord) => Out | undefined): Promise<Out[] | undefined> {
    await this.prepare();
    try {
      for (;;) {
        if (this.#bytePath?.active === true) {
          // Only in 'examples' mode, where Out is an Example.
          const examples = (await this.#bytePath.next()) as Out[] | undefined;
          if (examples !== undefined) return examples;
          continue;
        }
        let records: CsvRecord[] | undefined = this.#buffered;
        this.#buffered = [];
        if (records.length === 0) records = await this.#nextRecords();
        if (records === undefined) {
          // The last file is done: no thread waits idle for another.
          await this.#stopThreads();
          return undefined;
        }
        const out: Out[] = [];
        for (const record of records) {
          const converted = convert(record);
          if (converted !== undefined) out.push(converted);
        }
        if (out.length > 0) return out;
      }
    } catch (error) {
      await this.#bytePath?.close();
      await this.#stopThreads();
      throw error;
    }
  }

  /** The reader's next records; with a byte path, the rest of each file goes to it. */
  async #nextRecords(): Promise<CsvRecord[] | undefined> {
    const bytePath = this.#bytePath;
    if (bytePath === undefined) return this.#reader.next();
    const batch = await this.#reader.nextWithHandOff();
    if (batch?.remainder !== undefined) bytePath.start(batch.remainder, this.#helper, this.#indexer);
    return batch?.records;
  }

  #encodeRecord(record: CsvRecord): Positioned<Example> | undefined {
    return this.#rowEncoder!.encode(record, this.#policy);
  }

  #convert(record: CsvRecord): Record<string, Feature> | undefined {
    const features = this.#container(record);
    const fields = record.fields;
    const count = this.#converters.length;
    let index = 0;
    try {
      for (; index < count; index++) {
        const feature = this.#converters[index]!(fields[this.#indexes[index]!]!);
        if (feature !== undefined) {
          if (this.#special) define(features, this.#names[index]!, feature);
          else features[this.#names[index]!] = feature;
        }
      }
      return features;
    } catch (error) {
      if (!(error instanceof CellValueError)) throw error;
      this.#policy.handle(csvValueError(this.#schema!, this.#names, this.#indexes, record, index, error));
      return undefined;
    }
  }

  async #stopThreads(): Promise<void> {
    await this.#helper?.stop();
    await this.#indexer?.stop();
  }

  async cancel(): Promise<void> {
    await this.#bytePath?.close();
    await this.#stopThreads();
    await this.#reader.cancel();
  }

  report(stage: string) {
    const base = csvReaderReport(stage, this.#reader, this.#policy, {
      ...(this.#schema === undefined
        ? {}
        : { schema: this.#schema, vocabularies: (this.#vocabularies ??= vocabulariesOf(this.#schema)) }),
      inferredFromRows: this.#sampled,
      ...(this.#bytePath === undefined ? {} : { byteParsedRecords: this.#bytePath.records }),
      ...(this.#bytePath === undefined || this.#bytePath.threadChunks === 0
        ? {}
        : { threadChunks: this.#bytePath.threadChunks }),
      ...(this.#options.label === undefined ? {} : { label: this.#options.label }),
    });
    // The byte path reads the rest of files the reader handed over.
    return {
      ...base,
      bytes: this.#reader.bytes + (this.#bytePath?.bytes ?? 0),
      records: this.counted.records,
    };
  }
}

function define(target: Record<string, Feature>, name: string, value: Feature): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function vocabulariesOf(schema: CsvSchema): Record<string, readonly string[]> {
  const vocabularies: Record<string, readonly string[]> = {};
  for (const [name, column] of Object.entries(schema.columns)) {
    if (Array.isArray(column.vocabulary)) vocabularies[name] = column.vocabulary as readonly string[];
  }
  return vocabularies;
}
