import { TfpipeError } from '@tfpipe/core';
import { allocateData, checkDtype } from './dtype.js';
import type { Dtype } from './dtype.js';
import { checkShape, MAX_SHAPE_VALUES } from './feature-spec.js';
import type { FeatureSpec } from './feature-spec.js';

const KEYED_PARTITIONS = new Set(['rowSplits', 'rowLengths', 'rowStarts', 'rowLimits', 'valueRowIds']);

function invalid(name: string, detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `feature ${name}: ${detail}`, {
    stage: 'parseExample',
    fatal: true,
    position: { field: name },
  });
}

/** The typed array (or array) a tensor of `dtype` is held in, for `instanceof`-free comparison. */
function holdsDtype(data: unknown, dtype: Dtype): boolean {
  const sample = allocateData(dtype, 0) as unknown as object;
  if (dtype === 'string') return Array.isArray(data) && data.every((item) => item instanceof Uint8Array);
  return (
    typeof data === 'object' && data !== null && Object.getPrototypeOf(data) === Object.getPrototypeOf(sample)
  );
}

function checkDefault(name: string, data: unknown, dtype: Dtype, count: number): void {
  if (data === undefined) return;
  if (!holdsDtype(data, dtype))
    throw invalid(
      name,
      `default must be the tensor data of dtype ${dtype} (build the spec with its function)`,
    );
  if ((data as ArrayLike<unknown>).length !== count)
    throw invalid(
      name,
      `default has ${(data as ArrayLike<unknown>).length} values, but its shape holds ${count}`,
    );
}

function checkBoolean(name: string, value: unknown, field: string): void {
  if (typeof value !== 'boolean') throw invalid(name, `${field} must be true or false, got ${String(value)}`);
}

function checkKey(name: string, value: unknown, field: string): void {
  if (typeof value !== 'string' || value === '')
    throw invalid(name, `${field} must be a feature name, got ${JSON.stringify(value) ?? String(value)}`);
}

/**
 * Checks one entry of a parse spec by the rules its function (`fixedLen`, `varLen` …) applies, for
 * specs built by hand or deserialized: shapes of whole positive dimensions within
 * {@link MAX_SHAPE_VALUES} values per Example, a known dtype, a default of that dtype and the shape's
 * size, sparse index keys and sizes, ragged partitions.
 * @throws TfpipeError `INVALID_OPTION` naming the feature (its `position.field`)
 */
export function checkFeature(name: string, feature: FeatureSpec): void {
  const what = `feature ${name}`;
  switch (feature.type) {
    case 'fixedLen': {
      const shape = checkShape(feature.shape, what, MAX_SHAPE_VALUES, name);
      checkDtype(feature.dtype, name);
      const count = shape.reduce((product, dimension) => product * dimension, 1);
      checkDefault(name, feature.default, feature.dtype, count);
      return;
    }
    case 'varLen':
      checkDtype(feature.dtype, name);
      return;
    case 'fixedLenSequence':
      checkShape(feature.shape, what, MAX_SHAPE_VALUES, name);
      checkDtype(feature.dtype, name);
      checkBoolean(name, feature.allowMissing, 'allowMissing');
      checkDefault(name, feature.default, feature.dtype, 1);
      return;
    case 'sparse': {
      const keys: unknown = feature.indexKeys;
      if (!Array.isArray(keys) || keys.length === 0)
        throw invalid(name, 'indexKeys must be a non-empty array of feature names');
      keys.forEach((key, index) => checkKey(name, key, `indexKeys[${index}]`));
      checkKey(name, feature.valueKey, 'valueKey');
      const size = checkShape(feature.size, `${what} size`, Number.MAX_SAFE_INTEGER, name);
      if (size.length !== keys.length)
        throw invalid(name, `${keys.length} index keys but ${size.length} sizes`);
      checkDtype(feature.dtype, name);
      checkBoolean(name, feature.alreadySorted, 'alreadySorted');
      return;
    }
    case 'ragged': {
      checkDtype(feature.dtype, name);
      if (feature.valueKey !== undefined) checkKey(name, feature.valueKey, 'valueKey');
      const partitions: unknown = feature.partitions;
      if (!Array.isArray(partitions)) throw invalid(name, 'partitions must be an array');
      partitions.forEach((partition: unknown, index) => {
        const part = partition as { type?: unknown; key?: unknown; length?: unknown } | null;
        if (typeof part !== 'object' || part === null)
          throw invalid(
            name,
            `partitions[${index}] must be a partition (rowSplits('k'), uniformRowLength(n) …)`,
          );
        if (part.type === 'uniformRowLength') {
          const length = part.length;
          if (typeof length !== 'number' || !Number.isSafeInteger(length) || length <= 0)
            throw invalid(
              name,
              `partitions[${index}]: uniformRowLength must be a positive integer, got ${String(length)}`,
            );
        } else if (typeof part.type === 'string' && KEYED_PARTITIONS.has(part.type))
          checkKey(name, part.key, `partitions[${index}].key`);
        else throw invalid(name, `partitions[${index}] has an unknown type ${JSON.stringify(part.type)}`);
      });
      return;
    }
  }
}
