import { positionOf, TfpipeError } from '@tfpipe/core';
import type { Position, SerializedRecord } from '@tfpipe/core';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch, Tensor } from '../tensor.js';
import { FeatureLocator } from '../wire/feature-locator.js';
import { compileSpec } from './compile-spec.js';

/** Where a batch of bare byte arrays came from, for error positions. */
export interface BatchOrigin {
  /** The file the records were read from. */
  readonly file?: string;
  /**
   * The index in its file of the batch's first record; record `i` of the batch is `firstRecordIndex + i`.
   * @default 0
   */
  readonly firstRecordIndex?: number;
}

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

function recordPosition(record: SerializedRecord, batchIndex: number, origin: BatchOrigin): Position {
  const attached = positionOf(record);
  if (attached !== undefined) return attached;
  if (record instanceof Uint8Array) {
    const position: { file?: string; recordIndex: number } = {
      recordIndex: (origin.firstRecordIndex ?? 0) + batchIndex,
    };
    if (origin.file !== undefined) position.file = origin.file;
    return position;
  }
  const position: { -readonly [K in keyof Position]: Position[K] } = {};
  if (typeof record.file === 'string') position.file = record.file;
  else if (origin.file !== undefined) position.file = origin.file;
  position.recordIndex =
    typeof record.recordIndex === 'number' ? record.recordIndex : (origin.firstRecordIndex ?? 0) + batchIndex;
  if (typeof record.byteOffset === 'number') position.byteOffset = record.byteOffset;
  return position;
}

/** Puts the record's position on an error; an offset inside the payload moves into the reason. */
function locate(error: unknown, position: Position, field: string | undefined): TfpipeError {
  if (!TfpipeError.is(error)) {
    return new TfpipeError('INTERNAL', 'parseExample failed', {
      stage: 'parseExample',
      cause: error,
      position,
    });
  }
  const inPayload = error.code === 'PROTO_DECODE' ? error.position.byteOffset : undefined;
  const reason =
    inPayload === undefined
      ? error.reason
      : `${error.reason ?? ''} (byte ${inPayload} of the record's payload)`;
  const merged: Position = { ...error.position, ...position };
  if (inPayload !== undefined && position.byteOffset === undefined)
    delete (merged as { byteOffset?: number }).byteOffset;
  return new TfpipeError(error.code, error.detail, {
    stage: 'parseExample',
    position: field === undefined || merged.field !== undefined ? merged : { ...merged, field },
    cause: error,
    ...(reason === undefined ? {} : { reason }),
  });
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
          throw locate(error, recordPosition(record, batchIndex, origin), field);
        }
      });
      const batch = Object.create(null) as Record<string, Tensor>;
      for (const [name, column] of columns) batch[name] = column.finish();
      return batch as ParsedBatch<Spec>;
    },
  };
}
