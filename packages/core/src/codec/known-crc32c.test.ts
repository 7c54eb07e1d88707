import { describe, expect, it } from 'vitest';
import { bytes, float, int64 } from '../model/feature.js';
import { example } from '../model/example.js';
import { encodedLength, encodeInto } from './encode-example.js';
import { KNOWN_CRC_MIN_BYTES, knownCrc32c, withCrc32c } from './known-crc32c.js';

const filled = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, index) => (index * 7 + seed) & 0xff);

describe('known CRC-32Cs', () => {
  it('remembers a CRC for values of at least KNOWN_CRC_MIN_BYTES, by the value object', () => {
    const large = filled(KNOWN_CRC_MIN_BYTES, 1);
    expect(withCrc32c(large, 0x1234_5678)).toBe(large);
    expect(knownCrc32c(large)).toBe(0x1234_5678);
    expect(knownCrc32c(large.slice())).toBeUndefined();
    const small = filled(KNOWN_CRC_MIN_BYTES - 1, 2);
    withCrc32c(small, 7);
    expect(knownCrc32c(small)).toBeUndefined();
    // Stored unsigned, as CRCs are compared.
    expect(knownCrc32c(withCrc32c(filled(KNOWN_CRC_MIN_BYTES, 3), -1))).toBe(0xffff_ffff);
  });

  it('reports where the encoder wrote each value with a known CRC, only into the spans it is given', () => {
    const first = withCrc32c(filled(20_000, 4), 11);
    const second = withCrc32c(filled(KNOWN_CRC_MIN_BYTES, 5), 22);
    const unknown = filled(30_000, 6);
    const record = example({
      a: int64(1),
      image: bytes(first, 'small', unknown, second),
      z: float(0.5),
    });
    const target = new Uint8Array(encodedLength(record) + 9);
    const spans: number[] = [];
    encodeInto(record, target, 9, spans);
    expect(spans.length).toBe(6);
    expect([spans[1], spans[2], spans[4], spans[5]]).toEqual([20_000, 11, KNOWN_CRC_MIN_BYTES, 22]);
    expect(target.subarray(spans[0], spans[0]! + 20_000)).toEqual(first);
    expect(target.subarray(spans[3], spans[3]! + KNOWN_CRC_MIN_BYTES)).toEqual(second);

    encodeInto(record, target, 0);
    expect(spans.length).toBe(6);
  });
});
