import {
  decodeExample,
  decodeSequenceExample,
  type DecodeOptions,
  type Example,
  type SequenceExample,
} from '@tfpipe/core';
import { encodeInto, encodedLength } from '@tfpipe/core/internal';

/** The part of core's codec this package uses. */
export interface ExampleCodec {
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

/** Core's codec (the direct encoder writes straight into the sink's buffer). */
export const exampleCodec: ExampleCodec = { encodedLength, encodeInto, decodeExample, decodeSequenceExample };
