import type { DatasetStats, FeatureListStat, FeatureStat } from './feature-stats.js';

/** How a reader should parse one feature. */
export interface FeatureParseSpec {
  /** Feature name. */
  readonly name: string;
  /**
   * `fixed`: present in every record with the same length (`FixedLenFeature`); `varlen`: anything else
   * (`VarLenFeature`, a sparse tensor); `sequence`: a feature list whose every step has the same length
   * (`FixedLenSequenceFeature`); `skip`: no reader spec possible (mixed kinds), with `note` saying why.
   */
  readonly parser: 'fixed' | 'varlen' | 'sequence' | 'skip';
  /** The element type. */
  readonly dtype: 'int64' | 'float32' | 'string';
  /** The shape of a fixed feature or of one sequence step: `[]` for exactly one value. */
  readonly shape: readonly number[];
  /** Feature lists absent from some records need `allow_missing=True`. */
  readonly allowMissing: boolean;
  /** Why a feature got a weaker spec, for a comment beside it. */
  readonly note?: string;
}

/** Parse specs for the context/plain features and the feature lists of a dataset. */
export interface ReaderSpec {
  readonly payloadType: DatasetStats['payloadType'];
  readonly features: readonly FeatureParseSpec[];
  readonly featureLists: readonly FeatureParseSpec[];
}

/**
 * Chooses the strictest spec TensorFlow can parse every record with: `FixedLenFeature` for features
 * present everywhere with one length, `VarLenFeature` otherwise; for feature lists,
 * `FixedLenSequenceFeature` when every step has one length.
 */
export function readerSpec(stats: DatasetStats): ReaderSpec {
  return {
    payloadType: stats.payloadType,
    features: stats.features.map((stat) => featureSpec(stat, stats.records)),
    featureLists: stats.featureLists.map((stat) => featureListSpec(stat, stats.records)),
  };
}

function dtypeOf(stat: FeatureStat): FeatureParseSpec['dtype'] {
  return stat.kind === 'int64' ? 'int64' : stat.kind === 'float' ? 'float32' : 'string';
}

function featureSpec(stat: FeatureStat, records: number): FeatureParseSpec {
  const base = { name: stat.name, dtype: dtypeOf(stat), allowMissing: stat.present < records };
  if (stat.kind === 'mixed') {
    return {
      ...base,
      parser: 'skip',
      shape: [],
      note: 'records disagree on its kind; no single spec parses it',
    };
  }
  if (stat.kind === 'none') {
    return { ...base, parser: 'varlen', shape: [], note: 'always empty (no kind set); the dtype is a guess' };
  }
  if (stat.present === records && stat.minLength === stat.maxLength && stat.maxLength > 0) {
    return { ...base, parser: 'fixed', shape: stat.maxLength === 1 ? [] : [stat.maxLength] };
  }
  const note =
    stat.present < records
      ? `missing from ${records - stat.present} of ${records} records`
      : `list length varies from ${stat.minLength} to ${stat.maxLength}`;
  return { ...base, parser: 'varlen', shape: [], note };
}

function featureListSpec(stat: FeatureListStat, records: number): FeatureParseSpec {
  const spec = featureSpec({ ...stat, present: records }, records);
  if (spec.parser === 'fixed') return { ...spec, parser: 'sequence', allowMissing: stat.present < records };
  return { ...spec, allowMissing: stat.present < records };
}
