import { KIND_INT64, KIND_NONE } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import { ValueBuffer } from '../wire/value-buffer.js';
import { countValues, writeValues } from '../wire/value-writer.js';
import { sparseKindError } from './column.js';

/**
 * The int64 values of the feature in `slot` as numbers (an index or a partition; one beyond
 * ±(2^53 - 1) fails with `INT64_RANGE`). Missing or kindless reads as no values.
 */
export function readIntList(
  locator: FeatureLocator,
  slot: number,
  key: string,
  exampleIndex: number,
): Float64Array {
  const kind = locator.resolve(slot);
  if (kind === KIND_NONE) return new Float64Array(0);
  if (kind !== KIND_INT64) throw sparseKindError(key, exampleIndex, kind, 'int64');
  const count = countValues(locator, kind);
  const buffer = new ValueBuffer('number', count);
  writeValues(locator, kind, buffer, 0, count, key, exampleIndex);
  return buffer.data;
}
