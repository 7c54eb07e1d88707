/**
 * The declarative spec `buildExamples` and `buildSequenceExamples` take: for each feature its kind,
 * where its value comes from and what to do when it is missing.
 */

/** The value kinds a spec can ask for (the three `tf.train.Feature` lists). */
export type ValueKind = 'int64' | 'float' | 'bytes';

/**
 * What a missing cell (`undefined`, `null` or `''`) becomes:
 * - `'omit'`: the feature is absent from the Example, so TensorFlow's parse spec default applies;
 * - `'empty'`: the feature is present with an empty list;
 * - `'default'`: the feature takes {@link FeatureOptions.default};
 * - `'error'`: a `FEATURE_MISSING` error (under the `onError` policy).
 */
export type MissingPolicy = 'omit' | 'empty' | 'default' | 'error';

/** The options every feature spec accepts, whatever its source. */
export interface FeatureOptions {
  /** The list kind to build. */
  readonly kind: ValueKind;
  /**
   * Splits a string cell into a list on this separator. For `int64` and `float` each piece is trimmed
   * of surrounding whitespace and an empty piece is an error; for `bytes` pieces are kept verbatim.
   * @default no split: a string is one value
   */
  readonly split?: string;
  /**
   * `int64` only: also accept the strings `"true"` and `"false"` (any case) as 1 and 0.
   * JS booleans are always accepted.
   * @default false
   */
  readonly boolean?: boolean;
  /**
   * What a missing cell becomes.
   * @default the builder's `missing` option, itself `'omit'` by default
   */
  readonly missing?: MissingPolicy;
  /**
   * The value (or list of values) used when `missing` is `'default'`, coerced like a cell when the
   * builder is created. Required with `missing: 'default'`.
   */
  readonly default?: unknown;
}

/** The string keys of a row type. */
type FieldOf<Row> = Extract<keyof Row, string>;

/** A feature read from a field of the row (by default the field named like the feature). */
export interface FieldFeatureSpec<Row> extends FeatureOptions {
  /** The row field to read (any string when the row type has no known keys). @default the feature name */
  readonly field?: [FieldOf<Row>] extends [never] ? string : FieldOf<Row>;
  readonly value?: never;
}

/** A feature computed from the whole row. */
export interface ComputedFeatureSpec<Row> extends FeatureOptions {
  /** Computes the cell from the row; the result is coerced like a field's value. */
  readonly value: (row: Row) => unknown;
  readonly field?: never;
}

/** One feature of a spec in its long form. */
export type FeatureSpec<Row> = FieldFeatureSpec<Row> | ComputedFeatureSpec<Row>;

/** One entry of a spec: a kind (shorthand for the field named like the feature) or a {@link FeatureSpec}. */
export type FeatureEntry<Row> = ValueKind | FeatureSpec<Row>;

/** A spec without per-name checks: what a config file or untyped code holds. */
export type ExampleSpec<Row = Record<string, unknown>> = Readonly<Record<string, FeatureEntry<Row>>>;

/**
 * The spec `Spec` checked against `Row`, name by name: a feature named like a field of `Row` may use
 * any form; any other name must give `{ kind, field }` with an existing field, or `{ kind, value }`.
 * Inference runs through this mapped type, which is what makes a misspelt field fail to compile.
 * Names are not checked when they cannot be: a spec typed `ExampleSpec` (built at run time, e.g.
 * from a config file) or a row type without known keys (`object`, `Record<string, unknown>`).
 */
export type CheckedSpec<Row, Spec> = {
  readonly [Name in keyof Spec]: string extends Name
    ? FeatureEntry<Row>
    : [FieldOf<Row>] extends [never]
      ? FeatureEntry<Row>
      : Name extends FieldOf<Row>
        ? FeatureEntry<Row>
        : ComputedFeatureSpec<Row> | (FieldFeatureSpec<Row> & { readonly field: FieldOf<Row> });
};
