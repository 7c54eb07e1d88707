import {
  decodeExample,
  decodeSequenceExample,
  encodeInto,
  encodedLength,
  type DecodeOptions,
  type Example,
  type SequenceExample,
} from '@tfpipe/core';

/** The part of core's codec this package uses. */
export interface CoreCodec {
  encodedLength(value: Example | SequenceExample): number;
  encodeInto(
    value: Example | SequenceExample,
    target: Uint8Array,
    offset: number,
    crcSpans?: number[],
  ): number;
  decodeExample(bytes: Uint8Array, options?: DecodeOptions): Example;
  decodeSequenceExample(bytes: Uint8Array, options?: DecodeOptions): SequenceExample;
}

const CODEC: CoreCodec = { encodedLength, encodeInto, decodeExample, decodeSequenceExample };

/** Core's codec (the direct encoder writes straight into the sink's buffer). */
export function coreCodec(_stage: string): CoreCodec {
  return CODEC;
}
