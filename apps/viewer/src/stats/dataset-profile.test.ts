import {
  bytes,
  encodeExample,
  encodeSequenceExample,
  example,
  float,
  int64,
  sequenceExample,
} from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { decodePayload } from '../decode-payload.js';
import { ProfileCollector } from './dataset-profile.js';

describe('ProfileCollector', () => {
  it('profiles SequenceExample context features and counts feature lists as core does', () => {
    const collector = new ProfileCollector();
    for (const record of [
      sequenceExample({ length: int64(2) }, { tokens: [int64(7, 8), int64(9)] }),
      sequenceExample({ length: int64(1) }, { tokens: [int64(1)] }),
    ]) {
      collector.add(decodePayload(encodeSequenceExample(record)));
    }
    collector.add(decodePayload(Uint8Array.of(0xff, 0xff)));
    const profile = collector.result('s.tfrecord', 'none');
    expect(profile).toMatchObject({ payloadType: 'SequenceExample', records: 2, undecodable: 1 });
    expect(profile.features[0]?.values?.numeric).toMatchObject({ min: '1', max: '2', mean: 1.5 });
    expect(profile.featureLists).toEqual([
      { name: 'tokens', kind: 'int64', present: 2, minLength: 1, maxLength: 2, minSteps: 1, maxSteps: 2 },
    ]);
    expect(profile.specs.dali).toContain('DALI reads tf.train.Example records only');
    expect(profile.specs.typescript).toContain("tokens: varLen('int64'), // list length varies from 1 to 2");
  });

  it('counts NaN and infinities apart, and bytes values too long to count', () => {
    const collector = new ProfileCollector();
    collector.add(
      decodePayload(
        encodeExample(
          example({ x: float(1, Number.NaN, Infinity, -2), blob: bytes(new Uint8Array(300), 'a') }),
        ),
      ),
    );
    const [blob, x] = collector.result('f', 'none').features;
    expect(x?.values?.numeric).toMatchObject({ min: '-2', max: '1', mean: -0.5, nonFinite: 2 });
    expect(blob?.values).toMatchObject({ longValues: 1, top: [{ value: '"a"', count: 1, error: 0 }] });
  });
});
