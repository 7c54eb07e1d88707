import { TfpipeError } from '@tfpipe/core';
import type { SerializedRecord } from '@tfpipe/core';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch, Tensor } from '../tensor.js';
import { FeatureLocator } from '../wire/feature-locator.js';
import { compileSpec } from './compile-spec.js';
import { locateError, recordPosition } from './record-position.js';
import type { BatchOrigin } from './record-position.js';

/** A compiled parse spec: call `parse` with each batch of serialized Examples. */
export interface ExampleParser<Spec extends ExampleParseSpec> {
  /** The spec it parses with. */
  readonly spec: Spec;
  /**
   * Parses a batch of serialized `tf.train.Example`s straight into one tensor per spec entry. A
   * record is its bytes, or an object `{ data, file, recordIndex, byteOffset }` as `tfrecordSource`
   * yields; errors carry that position (else `origin`'s).
   * @throws TfpipeError `FEATURE_MISSING`, `FEATURE_TYPE`, `INT64_RANGE` or `PROTO_DECODE` naming the
   *   feature, the record and the file
   */
  parse(records: readonly SerializedRecord[], origin?: BatchOrigin): ParsedBatch<Spec>;
}

/**
 * `tf.io.parse_example` in TypeScript: compiles `spec` once, then decodes each batch of serialized
 * Examples straight from their wire bytes into the batch's typed arrays, with TensorFlow's semantics
 * (missing and kindless features, defaults, counts, kinds) and its error messages.
 * @throws TfpipeError `INVALID_OPTION` for a bad spec
 */
export function parseExample<const Spec extends ExampleParseSpec>(spec: Spec): ExampleParser<Spec> {
  const { keys, columns } = compileSpec(spec);
  const locator = new FeatureLocator(keys);
  return {
    spec,
    parse(records: readonly SerializedRecord[], origin: BatchOrigin = {}): ParsedBatch<Spec> {
      for (const [, column] of columns) column.start(records.length);
      records.forEach((record, batchIndex) => {
        let field: string | undefined;
        try {
          const bytes = record instanceof Uint8Array ? record : record.data;
          if (!(bytes instanceof Uint8Array))
            throw new TfpipeError('PROTO_DECODE', 'malformed Example', {
              reason: 'a record must be a Uint8Array',
            });
          locator.locate(bytes);
          for (const [name, column] of columns) {
            field = name;
            column.read(locator, batchIndex);
          }
        } catch (error) {
          throw locateError(error, recordPosition(record, batchIndex, origin), field, 'parseExample');
        }
      });
      const batch = Object.create(null) as Record<string, Tensor>;
      for (const [name, column] of columns) batch[name] = column.finish();
      return batch as ParsedBatch<Spec>;
    },
  };
}
