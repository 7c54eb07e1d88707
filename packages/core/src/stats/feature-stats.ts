import type { Example, Features, PayloadType, SequenceExample } from '../model/example.js';
import { isSequenceExample } from '../model/example.js';
import type { FeatureKind } from '../model/feature.js';

/** What was seen of one feature across a dataset. */
export interface FeatureStat {
  /** Feature name. */
  readonly name: string;
  /** Its kind; `'mixed'` when records disagree (a dataset TensorFlow cannot parse with one spec). */
  readonly kind: Exclude<FeatureKind, 'none'> | 'none' | 'mixed';
  /** Records in which the feature is present (a kindless Feature counts as present). */
  readonly present: number;
  /** Shortest list seen where present. */
  readonly minLength: number;
  /** Longest list seen where present. */
  readonly maxLength: number;
}

/** What was seen of one feature list of SequenceExamples. */
export interface FeatureListStat extends FeatureStat {
  /** Fewest steps (Features in the list) where present. */
  readonly minSteps: number;
  /** Most steps where present. */
  readonly maxSteps: number;
}

/** The summary of a dataset's features, sorted by name. */
export interface DatasetStats {
  /** What the records are. */
  readonly payloadType: PayloadType;
  /** Records seen. */
  readonly records: number;
  /** Features (of an Example) or context features (of a SequenceExample). */
  readonly features: readonly FeatureStat[];
  /** Feature lists of SequenceExamples; empty for Examples. */
  readonly featureLists: readonly FeatureListStat[];
}

interface MutableStat {
  kind: FeatureStat['kind'];
  present: number;
  minLength: number;
  maxLength: number;
  minSteps: number;
  maxSteps: number;
}

/**
 * Accumulates {@link DatasetStats} one record at a time in memory proportional to the number of
 * distinct feature names, not records. Used by the sink's manifest, `tfpipe schema` and the reader
 * spec generators.
 */
export class FeatureStatsCollector {
  #records = 0;
  #payloadType: PayloadType | undefined;
  readonly #features = new Map<string, MutableStat>();
  readonly #featureLists = new Map<string, MutableStat>();

  /** Adds one record. */
  add(record: Example | SequenceExample): void {
    this.#records++;
    if (isSequenceExample(record)) {
      this.#payloadType ??= 'SequenceExample';
      addFeatures(this.#features, record.context);
      for (const name of Object.keys(record.featureLists)) {
        const steps = record.featureLists[name] ?? [];
        const stat = statFor(this.#featureLists, name);
        stat.present++;
        stat.minSteps = Math.min(stat.minSteps, steps.length);
        stat.maxSteps = Math.max(stat.maxSteps, steps.length);
        for (const step of steps) observe(stat, step.kind, step.value.length);
      }
    } else {
      this.#payloadType ??= 'Example';
      addFeatures(this.#features, record.features);
    }
  }

  /** Records added so far. */
  get records(): number {
    return this.#records;
  }

  /** The stats so far, features sorted by name. */
  result(payloadType?: PayloadType): DatasetStats {
    return {
      payloadType: payloadType ?? this.#payloadType ?? 'Example',
      records: this.#records,
      features: [...this.#features].sort(byName).map(([name, stat]) => toStat(name, stat)),
      featureLists: [...this.#featureLists].sort(byName).map(([name, stat]) => ({
        ...toStat(name, stat),
        minSteps: stat.maxSteps < 0 ? 0 : stat.minSteps,
        maxSteps: Math.max(stat.maxSteps, 0),
      })),
    };
  }
}

function addFeatures(stats: Map<string, MutableStat>, features: Features): void {
  for (const name of Object.keys(features)) {
    const feature = features[name];
    if (feature === undefined) continue;
    const stat = statFor(stats, name);
    stat.present++;
    observe(stat, feature.kind, feature.value.length);
  }
}

function statFor(stats: Map<string, MutableStat>, name: string): MutableStat {
  let stat = stats.get(name);
  if (stat === undefined) {
    stat = { kind: 'none', present: 0, minLength: Infinity, maxLength: -1, minSteps: Infinity, maxSteps: -1 };
    stats.set(name, stat);
  }
  return stat;
}

function observe(stat: MutableStat, kind: FeatureKind, length: number): void {
  // A kindless Feature is an empty list of any kind: it neither sets nor contradicts the kind.
  if (kind !== 'none') {
    if (stat.kind === 'none') stat.kind = kind;
    else if (stat.kind !== kind) stat.kind = 'mixed';
  }
  stat.minLength = Math.min(stat.minLength, length);
  stat.maxLength = Math.max(stat.maxLength, length);
}

function toStat(name: string, stat: MutableStat): FeatureStat {
  return {
    name,
    kind: stat.kind,
    present: stat.present,
    minLength: stat.maxLength < 0 ? 0 : stat.minLength,
    maxLength: Math.max(stat.maxLength, 0),
  };
}

function byName([a]: [string, MutableStat], [b]: [string, MutableStat]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
