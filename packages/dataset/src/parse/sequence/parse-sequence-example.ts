import { TfpipeError } from '@tfpipe/core';
import type { SerializedRecord } from '@tfpipe/core';
import type { Dtype } from '../../spec/dtype.js';
import type {
  ExampleParseSpec,
  FixedLenSequenceSpec,
  RaggedSpec,
  VarLenSpec,
} from '../../spec/feature-spec.js';
import type { DenseTensor, ParsedBatch, Tensor } from '../../tensor.js';
import { FeatureLocator } from '../../wire/feature-locator.js';
import type { Column } from '../column.js';
import { compileSpec } from '../compile-spec.js';
import { locateError, recordPosition } from '../record-position.js';
import type { BatchOrigin } from '../record-position.js';
import { FeatureListDenseColumn } from './feature-list-dense-column.js';
import { FeatureListRaggedColumn } from './feature-list-ragged-column.js';
import { FeatureListSparseColumn } from './feature-list-sparse-column.js';

/** A feature-lists spec: `fixedLenSequence` (dense, with lengths), `varLen` (sparse) or `ragged` without partitions. */
export type SequenceParseSpec = Readonly<Record<string, FixedLenSequenceSpec | VarLenSpec | RaggedSpec>>;

type DenseKeys<S> = { [K in keyof S]: S[K] extends FixedLenSequenceSpec<Dtype> ? K : never }[keyof S];

/** What `parseSequenceExample` gives per batch, as `tf.io.parse_sequence_example`'s three dicts. */
export interface ParsedSequenceBatch<Context extends ExampleParseSpec, Sequence extends SequenceParseSpec> {
  /** The context features, as `parseExample` parses an Example's. */
  readonly context: ParsedBatch<Context>;
  /** The feature lists: dense `[batch, maxSteps, ...shape]`, sparse `[batch, maxSteps, maxLength]`, or ragged (Examples → steps → values). */
  readonly featureLists: ParsedBatch<Sequence>;
  /** The number of steps of each Example, for each `fixedLenSequence` feature list: int64 `[batch]`. */
  readonly lengths: { readonly [K in DenseKeys<Sequence>]: DenseTensor<'int64'> };
}

/** A compiled SequenceExample spec: call `parse` with each batch of serialized SequenceExamples. */
export interface SequenceExampleParser<Context extends ExampleParseSpec, Sequence extends SequenceParseSpec> {
  /**
   * Parses a batch of serialized `tf.train.SequenceExample`s; records and errors as `ExampleParser.parse`.
   * @throws TfpipeError `FEATURE_MISSING`, `FEATURE_TYPE`, `INT64_RANGE` or `PROTO_DECODE`
   */
  parse(records: readonly SerializedRecord[], origin?: BatchOrigin): ParsedSequenceBatch<Context, Sequence>;
}

function compileLists(spec: SequenceParseSpec): { keys: string[]; columns: [string, Column][] } {
  const keys: string[] = [];
  const columns = Object.keys(spec).map((name): [string, Column] => {
    const feature = spec[name]!;
    const key = feature.type === 'ragged' ? (feature.valueKey ?? name) : name;
    const slot = keys.includes(key) ? keys.indexOf(key) : keys.push(key) - 1;
    if (feature.type === 'fixedLenSequence') return [name, new FeatureListDenseColumn(name, slot, feature)];
    if (feature.type === 'varLen') return [name, new FeatureListSparseColumn(name, slot, feature)];
    if (feature.type === 'ragged' && feature.partitions.length === 0) {
      return [name, new FeatureListRaggedColumn(name, slot, feature)];
    }
    throw new TfpipeError(
      'INVALID_OPTION',
      `feature list ${name}: expected fixedLenSequence, varLen or ragged without partitions`,
      { stage: 'parseSequenceExample', fatal: true, position: { field: name } },
    );
  });
  return { keys, columns };
}

/**
 * `tf.io.parse_sequence_example` in TypeScript: context features with `parseExample`'s specs, feature
 * lists with `fixedLenSequence` (every step exactly `shape`'s values), `varLen` or `ragged`, and the
 * sequence lengths of the dense ones. Decodes straight from the wire bytes, like `parseExample`.
 * @throws TfpipeError `INVALID_OPTION` for a bad spec
 */
export function parseSequenceExample<
  const Context extends ExampleParseSpec,
  const Sequence extends SequenceParseSpec,
>(contextSpec: Context, sequenceSpec: Sequence): SequenceExampleParser<Context, Sequence> {
  const context = compileSpec(contextSpec);
  const lists = compileLists(sequenceSpec);
  const contextLocator = new FeatureLocator(context.keys, 1);
  const listLocator = new FeatureLocator(lists.keys, 2);
  return {
    parse(records, origin = {}) {
      for (const [, column] of [...context.columns, ...lists.columns]) column.start(records.length);
      records.forEach((record, batchIndex) => {
        let field: string | undefined;
        try {
          const bytes = record instanceof Uint8Array ? record : record.data;
          contextLocator.locate(bytes);
          listLocator.locate(bytes);
          for (const [name, column] of context.columns) {
            field = name;
            column.read(contextLocator, batchIndex);
          }
          for (const [name, column] of lists.columns) {
            field = name;
            column.read(listLocator, batchIndex);
          }
        } catch (error) {
          throw locateError(error, recordPosition(record, batchIndex, origin), field, 'parseSequenceExample');
        }
      });
      const contextBatch = Object.create(null) as Record<string, Tensor>;
      for (const [name, column] of context.columns) contextBatch[name] = column.finish();
      const listBatch = Object.create(null) as Record<string, Tensor>;
      const lengths = Object.create(null) as Record<string, DenseTensor<'int64'>>;
      for (const [name, column] of lists.columns) {
        listBatch[name] = column.finish();
        if (column instanceof FeatureListDenseColumn) lengths[name] = column.lengths();
      }
      return {
        context: contextBatch as ParsedBatch<Context>,
        featureLists: listBatch as ParsedBatch<Sequence>,
        lengths: lengths as ParsedSequenceBatch<Context, Sequence>['lengths'],
      };
    },
  };
}
