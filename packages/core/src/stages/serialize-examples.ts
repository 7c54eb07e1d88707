import { attachReport } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { encodeExample, encodeSequenceExample } from '../codec/encode-example.js';
import { positionOf } from '../contract/plugin-contract.js';
import type { Example, SequenceExample } from '../model/example.js';
import { isSequenceExample } from '../model/example.js';

/**
 * A stage that serializes each Example or SequenceExample to its deterministic wire bytes (map
 * entries in UTF-8 key order), one `Uint8Array` per record, ready for a TFRecord sink.
 *
 * A value that cannot be encoded (a wrong value type, a lone-surrogate feature name) fails the stream
 * with `FEATURE_TYPE` and the record's position, if it carries one.
 */
export function serializeExamples(): TransformStream<Example | SequenceExample, Uint8Array> & Reporter {
  let records = 0;
  let bytes = 0;
  const stream = new TransformStream<Example | SequenceExample, Uint8Array>({
    transform(value, controller) {
      let encoded: Uint8Array;
      try {
        encoded = isSequenceExample(value) ? encodeSequenceExample(value) : encodeExample(value);
      } catch (error) {
        const position = positionOf(value);
        throw TfpipeError.is(error) && position !== undefined ? error.withPosition(position) : error;
      }
      records++;
      bytes += encoded.length;
      controller.enqueue(encoded);
    },
  });
  return attachReport(stream, () => ({ stage: 'serializeExamples', records, bytes }));
}
