import type { Example, Feature, FeatureKind, SequenceExample } from '@tfpipe/core';

/** What the manifest says about one feature across all records. */
export interface FeatureSummary {
  /** The feature (or feature list) name. */
  readonly name: string;
  /** `'feature'` in an Example, `'context'` or `'featureList'` in a SequenceExample. */
  readonly scope: 'feature' | 'context' | 'featureList';
  /**
   * The kind seen. `'none'` only when every occurrence had no kind set; `'mixed'` when two records
   * disagree (TensorFlow's parser would reject one of them).
   */
  readonly kind: FeatureKind | 'mixed';
  /** Records in which the feature is present. */
  readonly presence: number;
  /** The shortest list: values for a feature, steps for a feature list. */
  readonly minLength: number;
  /** The longest list. */
  readonly maxLength: number;
}

interface Accumulator {
  name: string;
  scope: FeatureSummary['scope'];
  kind: FeatureKind | 'mixed';
  presence: number;
  minLength: number;
  maxLength: number;
}

/** Collects {@link FeatureSummary}s from Examples and SequenceExamples as they are written. */
export class FeatureStats {
  readonly #features = new Map<string, Accumulator>();

  /** Counts one Example. */
  addExample(example: Example): void {
    for (const name of Object.keys(example.features)) {
      const feature = example.features[name]!;
      this.#add(name, 'feature', feature.kind, feature.value.length);
    }
  }

  /** Counts one SequenceExample. */
  addSequenceExample(sequence: SequenceExample): void {
    for (const name of Object.keys(sequence.context)) {
      const feature = sequence.context[name]!;
      this.#add(name, 'context', feature.kind, feature.value.length);
    }
    for (const name of Object.keys(sequence.featureLists)) {
      const steps = sequence.featureLists[name]!;
      this.#add(name, 'featureList', listKind(steps), steps.length);
    }
  }

  /** The summaries, sorted by scope then name. */
  summaries(): FeatureSummary[] {
    return [...this.#features.values()]
      .map((entry) => ({ ...entry }))
      .sort((left, right) => left.scope.localeCompare(right.scope) || compareNames(left.name, right.name));
  }

  #add(name: string, scope: FeatureSummary['scope'], kind: FeatureKind | 'mixed', length: number): void {
    const key = `${scope}\u0000${name}`;
    const entry = this.#features.get(key);
    if (entry === undefined) {
      this.#features.set(key, { name, scope, kind, presence: 1, minLength: length, maxLength: length });
      return;
    }
    entry.presence++;
    entry.minLength = Math.min(entry.minLength, length);
    entry.maxLength = Math.max(entry.maxLength, length);
    entry.kind = mergeKind(entry.kind, kind);
  }
}

function mergeKind(left: FeatureKind | 'mixed', right: FeatureKind | 'mixed'): FeatureKind | 'mixed' {
  if (left === right || right === 'none') return left;
  if (left === 'none') return right;
  return 'mixed';
}

function listKind(steps: readonly Feature[]): FeatureKind | 'mixed' {
  let kind: FeatureKind | 'mixed' = 'none';
  for (const step of steps) kind = mergeKind(kind, step.kind);
  return kind;
}

function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
