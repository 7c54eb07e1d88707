import type { RecordErrorOptions, Reporter } from '../contract/plugin-contract.js';
import { attachReport, positionOf, withPosition } from '../contract/plugin-contract.js';
import { RecordErrorPolicy } from '../contract/record-error-policy.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Position } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example } from '../model/example.js';
import { cellError } from './spec/cell-context.js';
import { compileDefault, compileEntry } from './spec/compile-feature.js';
import type { CompiledEntry } from './spec/compile-feature.js';
import { compileCellReader } from './spec/cell-reader.js';
import type { ReadFailure } from './spec/cell-reader.js';
import { RowEncoder } from './row-encoder/row-encoder.js';
import { plainCells } from './row-encoder/byte-range.js';
import type { CheckedSpec, ExampleSpec, FeatureEntry, MissingPolicy } from './spec/example-spec.js';

/** Options of {@link buildExamples}. */
export interface BuildExamplesOptions extends RecordErrorOptions {
  /**
   * The missing policy of every feature that does not set its own.
   * @default 'omit'
   */
  readonly missing?: MissingPolicy;
}

/**
 * The stream `buildExamples` returns: rows in, Examples out, with a report (records built, skipped).
 * It also takes batches (arrays of rows) and then emits arrays of Examples; see {@link BuildExampleBatchesStream}.
 */
export type BuildExamplesStream<Row> = TransformStream<Row, Example> & Reporter;

/** `buildExamples` typed for batches: arrays of rows in, arrays of Examples out (skipped rows left out). */
export type BuildExampleBatchesStream<Row> = TransformStream<readonly Row[], Example[]> & Reporter;

/** Builds the features of one row, or throws the first cell error (positioned at its field). */
export type RowBuilder = (row: object) => Record<string, Feature>;

/** A spec compiled once: how to read each cell, the Feature path, and the direct encoder. */
export interface RowPlan {
  readonly entries: readonly CompiledEntry[];
  /** Per feature, in spec order: reads its cell from a row (a computed value may throw). */
  readonly readers: readonly ((row: object) => unknown)[];
  /** The Feature path for the first `count` cells (in spec order); throws the first cell error. */
  fromCells(cells: readonly unknown[], count: number): Record<string, Feature>;
  /** The Feature path for a whole row. */
  readonly build: RowBuilder;
  /** Writes wire bytes straight from the cells; undefined when the spec cannot (see `RowEncoder.compile`). */
  readonly encoder: RowEncoder | undefined;
}

/**
 * Compiles a spec once into one small closure per feature (no per-row spreads or lookups in the
 * spec) and into a {@link RowEncoder} for the direct path.
 */
export function compileRowPlan(
  spec: ExampleSpec<object> | ExampleSpecEntries,
  options: BuildExamplesOptions,
  stage: string,
): RowPlan {
  if (typeof spec !== 'object' || spec === null) {
    throw new TfpipeError('INVALID_OPTION', 'the spec must be an object of features', { stage, fatal: true });
  }
  const pairs = specEntries(spec, stage);
  const names = pairs.map(([name]) => name);
  const entries = pairs.map(([name, entry]) => compileEntry(name, entry, options.missing ?? 'omit', stage));
  const fallbacks = entries.map((entry) =>
    entry.missing === 'default' ? compileDefault(entry, entry.coerce) : undefined,
  );
  const builders = entries.map((entry, index) => cellBuilder(entry, fallbacks[index]));
  const readers = entries.map((entry) => entry.read);
  // A feature named __proto__ needs a prototype-less object; others keep the faster plain literal.
  const bare = names.includes('__proto__');
  const count = names.length;
  const fromCells = (cells: readonly unknown[], cellCount: number): Record<string, Feature> => {
    const features: Record<string, Feature> = bare ? (Object.create(null) as Record<string, Feature>) : {};
    for (let index = 0; index < cellCount; index++) {
      const feature = builders[index]!(cells[index]);
      if (feature !== undefined) features[names[index]!] = feature;
    }
    return features;
  };
  const build = (row: object): Record<string, Feature> => {
    const features: Record<string, Feature> = bare ? (Object.create(null) as Record<string, Feature>) : {};
    for (let index = 0; index < count; index++) {
      const feature = builders[index]!(readers[index]!(row));
      if (feature !== undefined) features[names[index]!] = feature;
    }
    return features;
  };
  return { entries, readers, fromCells, build, encoder: RowEncoder.compile(entries, fallbacks) };
}

function cellBuilder(
  entry: CompiledEntry,
  fallback: Feature | undefined,
): (cell: unknown) => Feature | undefined {
  const { coerce, context, missing } = entry;
  const empty = { kind: entry.kind, value: [] } as Feature;
  return (cell) => {
    if (cell !== undefined && cell !== null && cell !== '') return coerce(cell);
    if (missing === 'omit') return undefined;
    if (missing === 'error') throw cellError('FEATURE_MISSING', `${entry.kind} feature is missing`, context);
    return fallback ?? empty;
  };
}

/** The Feature path of a spec: builds a row's features (used where no direct encoding applies). */
export function compileExampleSpec(
  spec: ExampleSpec<object>,
  options: BuildExamplesOptions,
  stage: string,
): RowBuilder {
  return compileRowPlan(spec, options, stage).build;
}

/**
 * A spec as `[name, entry]` pairs, for {@link compileCellEncoder} callers whose cells come in an order of
 * their own (a file's columns): an object's keys come integer-like names first (`{ b, 1 }` lists `1`
 * first), pairs keep the order given.
 */
export type ExampleSpecEntries = readonly (readonly [name: string, entry: FeatureEntry<object>])[];

/** The spec's features in cell order; duplicate names in pairs are an `INVALID_OPTION`. */
function specEntries(spec: ExampleSpec<object> | ExampleSpecEntries, stage: string): ExampleSpecEntries {
  if (!Array.isArray(spec))
    return Object.keys(spec).map((name) => [name, (spec as ExampleSpec<object>)[name]!]);
  const seen = new Set<string>();
  for (const pair of spec as ExampleSpecEntries) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || seen.has(pair[0])) {
      throw new TfpipeError('INVALID_OPTION', 'spec pairs must be [name, entry] with distinct names', {
        stage,
        fatal: true,
        ...(Array.isArray(pair) && typeof pair[0] === 'string' ? { position: { field: pair[0] } } : {}),
      });
    }
    seen.add(pair[0]);
  }
  return spec as ExampleSpecEntries;
}

/**
 * Encodes one row given as its cells, in the spec's feature order (see {@link compileCellEncoder}); the
 * Example carries `position` (read with `positionOf`) when it is given.
 */
export type CellEncoder = (cells: readonly unknown[], position?: Position) => Example;

/**
 * For sources that convert their values themselves: compiles a spec into a function that encodes one
 * row given as its cells, one per feature in the spec's key order, instead of reading fields from a
 * row object. JavaScript lists integer-like keys first (`{ b: 'bytes', 1: 'bytes' }` takes the cells
 * of `1`, then `b`); pass {@link ExampleSpecEntries} pairs to fix the order yourself. Cells follow `buildExamples`' rules (a missing cell is `undefined`; numbers, bigints,
 * strings, `Uint8Array`s, arrays of them, or ready `Feature`s; a bytes cell may also be a `ByteRange`, taken as
 * the view it gives, which the direct path copies from without the view, and any cell a `NumberCell`, taken as its
 * number). A row of common cells is written
 * straight to wire bytes and returned as an `EncodedExample` (what `buildExamples` emits, and what
 * `tfrecordSink` frames without re-encoding); any other row is returned as an Example of Features
 * with the same content. The cells array may be reused for the next row once the call returns.
 * @throws TfpipeError `INVALID_OPTION` at once for a bad spec; when called, `FEATURE_TYPE`,
 *   `UNSAFE_INTEGER`, `INT64_RANGE` or `FEATURE_MISSING` for a cell that does not fit (no position:
 *   the caller knows where the row came from)
 * @example
 * ```ts
 * const encode = compileCellEncoder({ age: 'int64', name: 'bytes' });
 * const example = encode([42, 'Ada']);
 * ```
 */
export function compileCellEncoder(
  spec: ExampleSpec<object> | ExampleSpecEntries,
  options: Pick<BuildExamplesOptions, 'missing'> & { readonly stage?: string } = {},
): CellEncoder {
  const plan = compileRowPlan(spec, options, options.stage ?? 'compileCellEncoder');
  const { encoder } = plan;
  const count = plan.entries.length;
  return (cells, position) => {
    const encoded = encoder?.encode(cells, position);
    if (encoded !== undefined) return encoded;
    const built: Example = { features: plan.fromCells(plainCells(cells), count) };
    return position === undefined ? built : withPosition(built, position);
  };
}

/** Adds the row's position (file, line, row …) to a cell error. */
export function positionRowError(error: unknown, row: unknown): unknown {
  const position = positionOf(row);
  return position !== undefined && TfpipeError.is(error) ? error.withPosition(position) : error;
}

/**
 * A stage that turns rows into `tf.train.Example`s by a declarative spec: for each feature its kind
 * (`int64`, `float`, `bytes`), its source (`field`, by default the feature name, or a computed
 * `value`), `split`, and the `missing` policy. The spec is checked when the factory is called
 * (`INVALID_OPTION`); a bad cell raises `FEATURE_TYPE`, `UNSAFE_INTEGER`, `INT64_RANGE` or
 * `FEATURE_MISSING` with the row's position and the field, under the `onError` policy.
 *
 * Typed: a spec that names a field the row type lacks fails to compile. The row type comes from the
 * pipeline around the call (`pipeline(source, buildExamples({...}), …)`), from a declared type
 * (`const stage: TransformStream<Person, Example> = buildExamples({...})`), or from
 * `buildExamples.for<Person>()(spec)`; otherwise it is `Record<string, unknown>` and any name goes.
 */
export interface BuildExamples {
  <Row extends object = Record<string, unknown>, Spec = never>(
    spec: CheckedSpec<Row, Spec>,
    options?: BuildExamplesOptions,
  ): BuildExamplesStream<Row>;
  /**
   * Names the row type: `buildExamples.for<Person>()({ age: 'int64' })`. (A call with the row type
   * as its only type argument, `buildExamples<Person>(spec)`, does not compile: TypeScript cannot
   * then infer the spec's names.)
   */
  for<Row extends object>(): <Spec>(
    spec: CheckedSpec<Row, Spec>,
    options?: BuildExamplesOptions,
  ) => BuildExamplesStream<Row>;
  /**
   * The same stage typed for batches: arrays of rows in (from `batch(size)` or a source that emits
   * batches), arrays of Examples out. Each row is still built, positioned and skipped on its own.
   */
  batches<Row extends object = Record<string, unknown>, Spec = never>(
    spec: CheckedSpec<Row, Spec>,
    options?: BuildExamplesOptions,
  ): BuildExampleBatchesStream<Row>;
}

/**
 * {@inheritDoc BuildExamples}
 * @example
 * ```ts
 * buildExamples({ age: 'int64', tags: { kind: 'bytes', split: '|' }, label: { kind: 'int64', field: 'y' } })
 * buildExamples.for<{ age: string }>()({ age: 'int64', decade: { kind: 'int64', value: (row) => Math.floor(Number(row.age) / 10) } })
 * ```
 */
export const buildExamples: BuildExamples = Object.assign(
  (spec: ExampleSpec<object>, options?: BuildExamplesOptions) => createBuilder(spec, options ?? {}),
  {
    for: () => (spec: ExampleSpec<object>, options?: BuildExamplesOptions) =>
      createBuilder(spec, options ?? {}),
    batches: (spec: ExampleSpec<object>, options?: BuildExamplesOptions) =>
      createBuilder(spec, options ?? {}),
  },
) as unknown as BuildExamples;

function createBuilder(
  spec: ExampleSpec<object>,
  options: BuildExamplesOptions,
): BuildExamplesStream<object> {
  const stage = 'buildExamples';
  const policy = new RecordErrorPolicy(options);
  const plan = compileRowPlan(spec, options, stage);
  const { readers, encoder } = plan;
  const count = readers.length;
  const cells = new Array<unknown>(count).fill(undefined);
  const readCells = compileCellReader(plan.entries);
  const failure: ReadFailure = { error: undefined };
  let records = 0;
  const buildOne = (row: object): Example | undefined => {
    try {
      if (encoder === undefined) {
        const features = plan.build(row);
        records++;
        return { features };
      }
      // Every cell is read once (a computed value is called once), then encoded directly; a row the
      // encoder refuses takes the Feature path from the same cells, which raises the first error.
      const read = readCells(row, cells, failure);
      const failed = read < count;
      if (!failed) {
        const encoded = encoder.encode(cells);
        if (encoded !== undefined) {
          records++;
          return encoded;
        }
      }
      const features = plan.fromCells(cells, read);
      if (failed) {
        const error = failure.error;
        failure.error = undefined;
        throw error;
      }
      records++;
      return { features };
    } catch (error) {
      policy.handle(positionRowError(error, row));
      return undefined;
    }
  };
  const buildBatch = (rows: readonly object[]): Example[] => {
    const examples: Example[] = [];
    for (const row of rows) {
      const built = buildOne(row);
      if (built !== undefined) examples.push(built);
    }
    return examples;
  };
  const stream = new TransformStream<object, Example>({
    transform(chunk, controller) {
      if (!Array.isArray(chunk)) {
        const built = buildOne(chunk);
        if (built !== undefined) controller.enqueue(built);
        return;
      }
      // A batch in, a batch out (the plugin contract's batching rule); skipped rows leave it shorter.
      // The loop lives in its own function: Node's `enqueue`, inlined here, deoptimizes on stream
      // state it has not seen, and the rows must not be built in the interpreter while this re-warms.
      const examples = buildBatch(chunk as readonly object[]);
      if (examples.length > 0) controller.enqueue(examples as unknown as Example);
    },
  });
  return attachReport(stream, () => ({
    stage,
    records,
    skipped: policy.skipped,
    skippedErrors: policy.errors,
  }));
}
