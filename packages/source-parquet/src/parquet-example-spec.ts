import { TfpipeError } from '@tfpipe/core';
import type { ParquetFeatureKind } from './describe-leaf.js';
import type { ParquetSchema } from './parquet-schema-types.js';

/** What a feature does when a row lacks it, as `buildExamples` takes it. */
export type MissingPolicy = 'omit' | 'error' | 'empty' | 'default';

/** One entry of the spec: a `buildExamples` FeatureSpec. */
export interface ParquetFeatureSpec {
  /** The tf.train.Feature kind. */
  readonly kind: ParquetFeatureKind;
  /** The row key it reads (the feature name). */
  readonly field: string;
  /** What happens when the value is null. */
  readonly missing: MissingPolicy;
}

/** Options of `parquetExampleSpec`. */
export interface ParquetExampleSpecOptions {
  /**
   * Only these features (by feature name), in this order.
   * @default every feature of the schema
   */
  readonly features?: readonly string[];
  /**
   * What a null becomes for nullable features: `'omit'` leaves the feature out of the Example (so
   * TensorFlow applies its parse default), `'empty'` writes an empty list, `'error'` fails the row.
   * Required (non-nullable) features always use `'error'`.
   * @default 'omit'
   */
  readonly missing?: Exclude<MissingPolicy, 'default'>;
}

/**
 * The `buildExamples` spec for a Parquet schema: one entry per feature, keyed by feature name,
 * with the kind of the type mapping. Pass it to `buildExamples` to turn `parquetSource` rows into
 * Examples without writing the spec by hand.
 */
export function parquetExampleSpec(
  schema: ParquetSchema,
  options: ParquetExampleSpecOptions = {},
): Record<string, ParquetFeatureSpec> {
  const spec: Record<string, ParquetFeatureSpec> = {};
  const byName = new Map(schema.features.map((feature) => [feature.name, feature]));
  for (const name of options.features ?? byName.keys()) {
    const feature = byName.get(name);
    if (feature === undefined) {
      throw new TfpipeError('INVALID_OPTION', `features names "${name}", which the schema lacks`, {
        stage: 'parquetExampleSpec',
        fatal: true,
        position: { field: name },
      });
    }
    spec[name] = {
      kind: feature.kind,
      field: name,
      missing: feature.nullable ? (options.missing ?? 'omit') : 'error',
    };
  }
  return spec;
}
