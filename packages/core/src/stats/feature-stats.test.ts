import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleArbitrary, referenceEncodeExample } from '../codec/codec-test-helpers.js';
import { decodeExample } from '../codec/decode-example.js';
import { encodeExample } from '../codec/encode-example.js';
import { EncodedExample } from '../codec/encoded-example.js';
import { FeatureStatsCollector } from './feature-stats.js';

/** The stats of `payloads` read as EncodedExamples (measured from the bytes) and decoded (the reference). */
function bothWays(payloads: readonly Uint8Array[]): [unknown, unknown] {
  const fromBytes = new FeatureStatsCollector();
  const decoded = new FeatureStatsCollector();
  for (const payload of payloads) {
    fromBytes.add(new EncodedExample(payload, 0, payload.length));
    decoded.add({ features: decodeExample(payload).features });
  }
  return [fromBytes.result(), decoded.result()];
}

describe('FeatureStatsCollector on encoded Examples', () => {
  it('measures the bytes as decoding them would: canonical records (seeded)', () => {
    fc.assert(
      fc.property(fc.array(exampleArbitrary, { maxLength: 6 }), (examples) => {
        const [fromBytes, decoded] = bothWays(examples.map((example) => encodeExample(example)));
        expect(fromBytes).toEqual(decoded);
      }),
      { seed: 3, numRuns: 500 },
    );
  });

  it('measures non-canonical bytes as decoding them would: protobufjs order, unpacked, repeated keys', () => {
    fc.assert(
      fc.property(fc.array(exampleArbitrary, { maxLength: 4 }), (examples) => {
        const [fromBytes, decoded] = bothWays(examples.map((example) => referenceEncodeExample(example)));
        expect(fromBytes).toEqual(decoded);
      }),
      { seed: 4, numRuns: 300 },
    );
    // The same key twice (the later entry wins), an unpacked int64 and a Feature with two lists.
    const awkward = [
      '0a10 0a050a01611200 0a070a016112021a00',
      '0a0b 0a090a017812041a020801',
      '0a0d 0a0b0a017912060a020a001a00',
    ].map((hex) => Uint8Array.from(Buffer.from(hex.replace(/ /g, ''), 'hex')));
    // Keys met again at the same index are trusted: a record repeating the previous one's key must still be caught.
    const entries = (...keys: string[]) => {
      const body = keys
        .map(
          (key) =>
            `0a0${(4 + key.length).toString(16)}0a0${key.length.toString(16)}${Buffer.from(key).toString('hex')}1200`,
        )
        .join('');
      return Uint8Array.from(
        Buffer.from(`0a${(body.length / 2).toString(16).padStart(2, '0')}${body}`, 'hex'),
      );
    };
    const sequence = [entries('a', 'd'), entries('d', 'd'), entries('b', 'c'), entries('b', 'c', 'c')];
    const [fromBytes, decoded] = bothWays(sequence);
    expect(fromBytes).toEqual(decoded);
    for (const payload of awkward) {
      expect(() => decodeExample(payload)).not.toThrow();
      const [fromBytes, decoded] = bothWays([payload]);
      expect(fromBytes).toEqual(decoded);
    }
  });
});
