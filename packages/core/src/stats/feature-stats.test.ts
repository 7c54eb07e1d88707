import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { exampleArbitrary } from '../codec/codec-test-helpers.js';
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

/** An Example's bytes with an empty Feature under each of `keys`, in the order given (repeats allowed). */
function entries(...keys: string[]): Uint8Array {
  const body = keys
    .map(
      (key) =>
        `0a0${(4 + key.length).toString(16)}0a0${key.length.toString(16)}${Buffer.from(key).toString('hex')}1200`,
    )
    .join('');
  return Uint8Array.from(Buffer.from(`0a${(body.length / 2).toString(16).padStart(2, '0')}${body}`, 'hex'));
}

describe('FeatureStatsCollector on encoded Examples', () => {
  it('measures the bytes as decoding them would, from the bytes: canonical records (seeded)', () => {
    // Canonical records never fall back to decoding (a scanner that refused everything would pass the comparison).
    const decode = vi.spyOn(EncodedExample.prototype, 'features', 'get');
    fc.assert(
      fc.property(fc.array(exampleArbitrary, { maxLength: 6 }), (examples) => {
        const payloads = examples.map((example) => encodeExample(example));
        const fromBytes = new FeatureStatsCollector();
        decode.mockClear();
        for (const payload of payloads) fromBytes.add(new EncodedExample(payload, 0, payload.length));
        expect(decode).not.toHaveBeenCalled();
        expect(fromBytes.result()).toEqual(bothWays(payloads)[1]);
      }),
      { seed: 3, numRuns: 500 },
    );
    decode.mockRestore();
  });

  it('measures records whose keys repeat across records, out of order or twice, as decoding would (seeded)', () => {
    // Keys from a small pool, so that records meet the previous records' keys at the same and at other indexes.
    const keys = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 4 });
    fc.assert(
      fc.property(fc.array(keys, { minLength: 1, maxLength: 8 }), (records) => {
        const [fromBytes, decoded] = bothWays(records.map((record) => entries(...record)));
        expect(fromBytes).toEqual(decoded);
      }),
      { seed: 4, numRuns: 1000 },
    );
    // Found by review: a key remembered at one index, with a later index still holding an older record's key.
    for (const sequence of [
      [entries('a', 'c'), entries('c'), entries('c', 'c')],
      [entries('a', 'd'), entries('d', 'd'), entries('b', 'c'), entries('b', 'c', 'c')],
    ]) {
      const [fromBytes, decoded] = bothWays(sequence);
      expect(fromBytes).toEqual(decoded);
    }
  });

  it('measures other non-canonical bytes as decoding them would, and leaves malformed ones to the decoder', () => {
    // The same key twice (the later entry wins), an unpacked int64 and a Feature with two lists.
    const awkward = [
      '0a10 0a050a01611200 0a070a016112021a00',
      '0a0b 0a090a017812041a020801',
      '0a0d 0a0b0a017912060a020a001a00',
    ].map((hex) => Uint8Array.from(Buffer.from(hex.replace(/ /g, ''), 'hex')));
    for (const payload of awkward) {
      expect(() => decodeExample(payload)).not.toThrow();
      const [fromBytes, decoded] = bothWays([payload]);
      expect(fromBytes).toEqual(decoded);
    }
    // A packed int64 of 11 bytes: the decoder refuses it, so the collector must not count it.
    const overlong = Uint8Array.from(Buffer.from(`0a160a140a0169120f1a0d0a0b${'ff'.repeat(10)}01`, 'hex'));
    expect(() => decodeExample(overlong)).toThrow(/longer than 10 bytes/);
    expect(() => new FeatureStatsCollector().add(new EncodedExample(overlong, 0, overlong.length))).toThrow(
      /longer than 10 bytes/,
    );
  });
});
