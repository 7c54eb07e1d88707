import {
  TfpipeError,
  type DecodeOptions,
  type Example,
  type PayloadType,
  type SequenceExample,
} from '@tfpipe/core';
import { exampleCodec } from './example-codec.js';

/** Where a record sits: its file, index and the file offset of its first framing byte. */
export interface RecordPlace {
  readonly file: string;
  readonly recordIndex: number;
  readonly byteOffset: number;
  /** The record's stored (masked) data CRC, not yet checked: given only where the reader leaves it (`verifyData: false`). */
  readonly dataCrc?: number;
}

/**
 * A decoder of `payloadType` payloads whose errors put the record's file offset first:
 * `malformed Example at byte 1234 (record 3) of a.tfrecord: <why> at payload byte 5`. (The codec
 * alone names only the offset inside the payload, which no one can find in the file.)
 */
export function payloadDecoder(
  payloadType: PayloadType,
  stage: string,
  decodeOptions: DecodeOptions = {},
): (data: Uint8Array, place: RecordPlace) => Example | SequenceExample {
  const codec = exampleCodec;
  // A record that would decode past maxDecodedBytes is RECORD_TOO_LARGE, under the onError policy.
  const decode = (bytes: Uint8Array): Example | SequenceExample =>
    payloadType === 'SequenceExample'
      ? codec.decodeSequenceExample(bytes, decodeOptions)
      : codec.decodeExample(bytes, decodeOptions);
  return (data, place) => {
    try {
      return decode(data);
    } catch (error) {
      throw payloadError(error, place, payloadType, stage);
    }
  };
}

function payloadError(
  error: unknown,
  place: RecordPlace,
  payloadType: PayloadType,
  stage: string,
): TfpipeError {
  const position = { file: place.file, byteOffset: place.byteOffset, recordIndex: place.recordIndex };
  if (!TfpipeError.is(error)) {
    return new TfpipeError('PROTO_DECODE', `cannot decode ${payloadType}`, { stage, cause: error, position });
  }
  const inPayload = error.position.byteOffset;
  const where = inPayload === undefined ? '' : ` at payload byte ${inPayload}`;
  return new TfpipeError(error.code, error.detail, {
    stage,
    cause: error,
    position: { ...error.position, ...position },
    reason: `${error.reason ?? 'invalid'}${where}`,
  });
}
