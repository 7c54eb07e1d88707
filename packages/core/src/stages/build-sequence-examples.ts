import type { Reporter } from '../contract/plugin-contract.js';
import { attachReport } from '../contract/plugin-contract.js';
import { RecordErrorPolicy } from '../contract/record-error-policy.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { SequenceExample } from '../model/example.js';
import type { BuildExamplesOptions } from './build-examples.js';
import { compileExampleSpec, positionRowError } from './build-examples.js';
import { cellError, preview } from './spec/cell-context.js';
import { compileDefault, compileEntry } from './spec/compile-feature.js';
import type { CompiledEntry } from './spec/compile-feature.js';
import type { CheckedSpec, ExampleSpec } from './spec/example-spec.js';

/** An untyped SequenceExample spec, as a config file holds it. */
export interface SequenceSpec<Row = Record<string, unknown>> {
  /** Per-example context features, exactly as in `buildExamples`. @default no context */
  readonly context?: ExampleSpec<Row>;
  /**
   * Feature lists: each reads a list of steps (an array, a typed array, or a string cut by `split`)
   * and makes one Feature per step; a step that is itself an array becomes a multi-value Feature.
   */
  readonly featureLists: ExampleSpec<Row>;
}

/** The stream `buildSequenceExamples` returns. */
export type BuildSequenceExamplesStream<Row> = TransformStream<Row, SequenceExample> & Reporter;

type CheckedSequenceSpec<Row, Context, Lists> = {
  readonly context?: CheckedSpec<Row, Context>;
  readonly featureLists: CheckedSpec<Row, Lists>;
};

/**
 * A stage that turns rows into `tf.train.SequenceExample`s: `context` is a `buildExamples` spec, and
 * each feature list reads an array-valued field (or a string with `split`) as its steps, one Feature
 * per step. `missing` on a feature list: `'omit'` leaves the list out, `'empty'` writes zero steps,
 * `'default'` uses `default` as the steps, `'error'` raises `FEATURE_MISSING`. A missing step inside
 * the list is a `FEATURE_TYPE` error. Typed like `buildExamples`.
 *
 * @example
 * ```ts
 * buildSequenceExamples({ context: { id: 'bytes' }, featureLists: { tokens: 'int64', frames: { kind: 'float', field: 'pixels' } } })
 * ```
 */
export interface BuildSequenceExamples {
  <Row extends object = Record<string, unknown>, Context = never, Lists = never>(
    spec: CheckedSequenceSpec<Row, Context, Lists>,
    options?: BuildExamplesOptions,
  ): BuildSequenceExamplesStream<Row>;
  /** Names the row type: `buildSequenceExamples.for<Clip>()({ featureLists: { frames: 'float' } })`. */
  for<Row extends object>(): <Context, Lists>(
    spec: CheckedSequenceSpec<Row, Context, Lists>,
    options?: BuildExamplesOptions,
  ) => BuildSequenceExamplesStream<Row>;
}

/** {@inheritDoc BuildSequenceExamples} */
export const buildSequenceExamples: BuildSequenceExamples = Object.assign(
  (spec: SequenceSpec<object>, options?: BuildExamplesOptions) => createSequenceBuilder(spec, options ?? {}),
  {
    for: () => (spec: SequenceSpec<object>, options?: BuildExamplesOptions) =>
      createSequenceBuilder(spec, options ?? {}),
  },
) as BuildSequenceExamples;

function createSequenceBuilder(
  spec: SequenceSpec<object>,
  options: BuildExamplesOptions,
): BuildSequenceExamplesStream<object> {
  const stage = 'buildSequenceExamples';
  if (
    typeof spec !== 'object' ||
    spec === null ||
    typeof spec.featureLists !== 'object' ||
    spec.featureLists === null
  ) {
    throw new TfpipeError('INVALID_OPTION', 'the spec must be { context?, featureLists }', {
      stage,
      fatal: true,
    });
  }
  const policy = new RecordErrorPolicy(options);
  const buildContext = compileExampleSpec(spec.context ?? {}, options, stage);
  const names = Object.keys(spec.featureLists);
  const lists = names.map((name) =>
    compileList(compileEntry(name, spec.featureLists[name], options.missing ?? 'omit', stage)),
  );
  let records = 0;
  const stream = new TransformStream<object, SequenceExample>({
    transform(row, controller) {
      let context: Record<string, Feature>;
      const featureLists = Object.create(null) as Record<string, readonly Feature[]>;
      try {
        context = buildContext(row);
        for (let index = 0; index < lists.length; index++) {
          const steps = lists[index]!(row);
          if (steps !== undefined) featureLists[names[index]!] = steps;
        }
      } catch (error) {
        policy.handle(positionRowError(error, row));
        return;
      }
      records++;
      controller.enqueue({ context, featureLists });
    },
  });
  return attachReport(stream, () => ({
    stage,
    records,
    skipped: policy.skipped,
    skippedErrors: policy.errors,
  }));
}

function compileList(entry: CompiledEntry): (row: object) => readonly Feature[] | undefined {
  const { read, coerce, context, missing } = entry;
  const split = entry.options.split;
  const steps = (cell: unknown): Feature[] => {
    let values: ArrayLike<unknown>;
    if (typeof cell === 'string' && split !== undefined) values = cell.split(split);
    else if (Array.isArray(cell)) values = cell;
    else if (ArrayBuffer.isView(cell) && !(cell instanceof DataView))
      values = cell as unknown as ArrayLike<unknown>;
    else throw cellError('FEATURE_TYPE', `${preview(cell)} is not a list of steps`, context);
    const out = new Array<Feature>(values.length);
    for (let index = 0; index < values.length; index++) {
      const value = values[index];
      if (value === undefined || value === null) {
        throw cellError('FEATURE_TYPE', `step ${index} is ${preview(value)}`, context);
      }
      out[index] = coerce(value);
    }
    return out;
  };
  const fallback: readonly Feature[] = missing === 'default' ? compileStepsDefault(entry, steps) : [];
  return (row) => {
    const cell = read(row);
    if (cell !== undefined && cell !== null && cell !== '') return steps(cell);
    if (missing === 'omit') return undefined;
    if (missing === 'error')
      throw cellError('FEATURE_MISSING', `${entry.kind} feature list is missing`, context);
    return fallback;
  };
}

function compileStepsDefault(entry: CompiledEntry, steps: (cell: unknown) => Feature[]): readonly Feature[] {
  let result: Feature[] = [];
  compileDefault(entry, (cell) => {
    result = steps(cell);
    return { kind: 'none', value: [] };
  });
  return result;
}
