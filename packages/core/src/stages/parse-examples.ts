import { attachReport, positionOf } from '../contract/plugin-contract.js';
import type { RecordErrorOptions, Reporter } from '../contract/plugin-contract.js';
import { RecordErrorPolicy } from '../contract/record-error-policy.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Position } from '../errors/tfpipe-error.js';
import { checkDecodeOptions, decodeExample, decodeSequenceExample } from '../codec/decode-example.js';
import type { DecodeOptions } from '../codec/decode-example.js';
import type { Example, PayloadType, SequenceExample } from '../model/example.js';

/** A serialized record: its bytes, or an object holding them (as `tfrecordSource` yields). */
export type SerializedRecord =
  | Uint8Array
  | {
      readonly data: Uint8Array;
      /** The file the record came from. */
      readonly file?: string;
      /** 0-based index of the record in its file. */
      readonly recordIndex?: number;
      /** Byte offset of the record's frame in its (decompressed) file. */
      readonly byteOffset?: number;
    };

/** Options of {@link parseExamples}. */
export interface ParseExamplesOptions<Type extends PayloadType = PayloadType>
  extends RecordErrorOptions, DecodeOptions {
  /**
   * What the records hold. Example bytes also parse as a SequenceExample, so this is never guessed.
   * @default 'Example'
   */
  readonly payloadType?: Type;
}

type Parsed<Type extends PayloadType> = Type extends 'SequenceExample' ? SequenceExample : Example;

/** Where a record came from: its attached position, else the fields a `TfRecord` carries. */
function recordPosition(chunk: SerializedRecord): Position {
  const attached = positionOf(chunk);
  if (attached !== undefined || chunk instanceof Uint8Array) return attached ?? {};
  const position: { -readonly [K in keyof Position]: Position[K] } = {};
  if (typeof chunk.file === 'string') position.file = chunk.file;
  if (typeof chunk.recordIndex === 'number') position.recordIndex = chunk.recordIndex;
  if (typeof chunk.byteOffset === 'number') position.byteOffset = chunk.byteOffset;
  return position;
}

/**
 * Moves the record's position onto a decode error. The record's own `byteOffset` (where its frame
 * starts in the file) wins; the offset inside the payload goes into the reason.
 */
function locate(error: TfpipeError, position: Position, recordIndex: number): TfpipeError {
  const inPayload = error.position.byteOffset;
  const merged: Position = { recordIndex, ...error.position, ...position };
  const reason =
    inPayload === undefined || position.byteOffset === undefined
      ? error.reason
      : `${error.reason ?? ''} (byte ${inPayload} of the payload)`;
  return new TfpipeError(error.code, error.detail, {
    stage: 'parseExamples',
    position: merged,
    cause: error,
    ...(reason === undefined ? {} : { reason }),
  });
}

/**
 * A stage that decodes serialized records into Examples (or SequenceExamples, with
 * `payloadType: 'SequenceExample'`). Decoding is as tolerant as protobuf's (see `decodeExample`);
 * a malformed record is a `PROTO_DECODE` error carrying the record's file, index and byte offset,
 * and falls under the `onError` policy (`'skip'` drops it, counts it and calls `onSkip`), as does a
 * record that would decode past `maxDecodedBytes` (`RECORD_TOO_LARGE`).
 * @throws TfpipeError `INVALID_OPTION` for a `payloadType` other than `'Example'` or `'SequenceExample'`,
 *   or a bad `maxDecodedBytes`
 */
export function parseExamples<Type extends PayloadType = 'Example'>(
  options: ParseExamplesOptions<Type> = {},
): TransformStream<SerializedRecord, Parsed<Type>> & Reporter {
  const payloadType = options.payloadType ?? 'Example';
  if (payloadType !== 'Example' && payloadType !== 'SequenceExample') {
    throw new TfpipeError(
      'INVALID_OPTION',
      `payloadType must be 'Example' or 'SequenceExample', got ${JSON.stringify(payloadType)}`,
      {
        fatal: true,
        stage: 'parseExamples',
      },
    );
  }
  checkDecodeOptions(options, 'parseExamples');
  const policy = new RecordErrorPolicy(options);
  const decodeOptions: DecodeOptions =
    options.maxDecodedBytes === undefined ? {} : { maxDecodedBytes: options.maxDecodedBytes };
  const decode = (payloadType === 'Example' ? decodeExample : decodeSequenceExample) as (
    bytes: Uint8Array,
    options: DecodeOptions,
  ) => Parsed<Type>;
  let records = 0;
  let index = 0;
  const stream = new TransformStream<SerializedRecord, Parsed<Type>>({
    transform(chunk, controller) {
      const recordIndex = index++;
      const data = chunk instanceof Uint8Array ? chunk : (chunk as { data?: unknown } | null)?.data;
      try {
        if (!(data instanceof Uint8Array)) {
          throw new TfpipeError('PROTO_DECODE', `malformed ${payloadType}`, {
            reason: 'a record must be a Uint8Array or { data: Uint8Array }',
          });
        }
        controller.enqueue(decode(data, decodeOptions));
        records++;
      } catch (error) {
        policy.handle(TfpipeError.is(error) ? locate(error, recordPosition(chunk), recordIndex) : error);
      }
    },
  });
  return attachReport(stream, () => ({
    stage: 'parseExamples',
    records,
    skipped: policy.skipped,
    skippedErrors: policy.errors,
  }));
}
