import { TfpipeError } from '@tfpipe/core';
import { checkFeature } from '../spec/check-feature.js';
import type { ExampleParseSpec, FeatureSpec } from '../spec/feature-spec.js';
import type { Column } from './column.js';
import { DenseColumn } from './dense-column.js';
import { RaggedColumn } from './ragged-column.js';
import { SequenceColumn } from './sequence-column.js';
import { SparseColumn } from './sparse-column.js';
import { VarLenColumn } from './var-len-column.js';

/** A spec compiled for the parser: the feature names to locate, and one column per output. */
export interface CompiledSpec {
  /** Every feature name the spec reads, each once; a column refers to one by its index (slot). */
  readonly keys: readonly string[];
  /** Output name and column, in the spec's order. */
  readonly columns: readonly (readonly [string, Column])[];
}

const TYPES = new Set(['fixedLen', 'varLen', 'sparse', 'ragged', 'fixedLenSequence']);

function invalid(detail: string, name: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', detail, {
    stage: 'parseExample',
    fatal: true,
    position: { field: name },
  });
}

/**
 * Checks a parse spec and builds its columns. Specs come from `fixedLen`, `varLen` … (already checked),
 * or from JSON, so the shape of each entry is checked again here.
 * @throws TfpipeError `INVALID_OPTION` naming the feature
 */
export function compileSpec(spec: ExampleParseSpec): CompiledSpec {
  if (typeof spec !== 'object' || spec === null)
    throw invalid('the parse spec must be an object of feature specs', '');
  const keys: string[] = [];
  const slots = new Map<string, number>();
  const slot = (key: string): number => {
    let found = slots.get(key);
    if (found === undefined) {
      found = keys.push(key) - 1;
      slots.set(key, found);
    }
    return found;
  };
  const columns = Object.keys(spec).map((name): [string, Column] => {
    const feature = spec[name] as FeatureSpec;
    if (typeof feature !== 'object' || feature === null || !TYPES.has(feature.type)) {
      throw invalid(
        `feature ${name}: expected a spec from fixedLen, varLen, sparse, ragged or fixedLenSequence`,
        name,
      );
    }
    checkFeature(name, feature);
    switch (feature.type) {
      case 'fixedLen':
        return [name, new DenseColumn(name, slot(name), feature)];
      case 'varLen':
        return [name, new VarLenColumn(name, slot(name), feature)];
      case 'fixedLenSequence':
        if (!feature.allowMissing) {
          throw invalid(
            `feature ${name}: Unsupported: FixedLenSequenceFeature requires allow_missing to be True.`,
            name,
          );
        }
        return [name, new SequenceColumn(name, slot(name), feature)];
      case 'sparse':
        return [name, new SparseColumn(name, slot(feature.valueKey), feature.indexKeys.map(slot), feature)];
      case 'ragged': {
        const partitionSlots = feature.partitions.map((partition) =>
          partition.type === 'uniformRowLength' ? -1 : slot(partition.key),
        );
        return [name, new RaggedColumn(name, slot(feature.valueKey ?? name), partitionSlots, feature)];
      }
    }
  });
  return { keys, columns };
}
