import type { Feature } from './feature.js';

/** The named features of an Example or of a SequenceExample's context. Keys are feature names. */
export type Features = Readonly<Record<string, Feature>>;

/** A `tf.train.Example`. */
export interface Example {
  readonly features: Features;
}

/** A `tf.train.SequenceExample`: per-example context features plus named lists of per-step features. */
export interface SequenceExample {
  readonly context: Features;
  readonly featureLists: Readonly<Record<string, readonly Feature[]>>;
}

/** What a record's payload is. The wire bytes of both parse as either, so it is recorded, never guessed. */
export type PayloadType = 'Example' | 'SequenceExample';

/**
 * An Example from named features. Keys are copied into a null-prototype object so that a feature
 * named `__proto__` is just a feature.
 */
export function example(features: Readonly<Record<string, Feature>>): Example {
  return { features: copyRecord(features) };
}

/** A SequenceExample from context features and feature lists. */
export function sequenceExample(
  context: Readonly<Record<string, Feature>>,
  featureLists: Readonly<Record<string, readonly Feature[]>>,
): SequenceExample {
  return { context: copyRecord(context), featureLists: copyRecord(featureLists) };
}

/** True for a SequenceExample object (it has `context` and `featureLists`, not `features`). */
export function isSequenceExample(value: Example | SequenceExample): value is SequenceExample {
  return (value as Partial<SequenceExample>).featureLists !== undefined;
}

function copyRecord<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const copy = Object.create(null) as Record<string, T>;
  for (const key of Object.keys(record)) copy[key] = record[key] as T;
  return copy;
}
