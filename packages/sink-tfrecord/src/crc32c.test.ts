import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cCombine, crc32cRange, maskCrc, maskedCrc32c, unmaskCrc } from './crc32c.js';
import { fastCrc32c, fastCrc32cRange, NATIVE_CRC_THRESHOLD, nativeCrc32cAvailable } from './native-crc32c.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const nativeCrc32c = (
  createRequire(import.meta.url)('@node-rs/crc32') as { crc32c: (input: Uint8Array) => number }
).crc32c;

describe('crc32c', () => {
  it('matches the CRC-32C check value for "123456789" (0xE3069283)', () => {
    expect(crc32c(text('123456789'))).toBe(0xe3069283);
  });

  it('matches the RFC 3720 test vectors', () => {
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, index) => index))).toBe(0x46dd794e);
  });

  it('is 0 for no bytes and continues a running CRC across chunks', () => {
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(text('56789'), crc32c(text('1234')))).toBe(0xe3069283);
  });

  it('combines two CRCs into the CRC of the joined bytes without reading them', () => {
    // The check value again, from its two halves' CRCs.
    expect(crc32cCombine(crc32c(text('1234')), crc32c(text('56789')), 5)).toBe(0xe3069283);
    expect(crc32cCombine(crc32c(text('123456789')), 0, 0)).toBe(0xe3069283);
    expect(crc32cCombine(0, crc32c(text('123456789')), 9)).toBe(0xe3069283);
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.uint8Array({ maxLength: 600 }),
        fc.nat(300_000),
        (first, second, zeros) => {
          // A long middle of zeros puts the length's high bits to work (up to ~2^19 bytes).
          const middle = new Uint8Array(zeros);
          const joined = new Uint8Array(first.length + zeros + second.length);
          joined.set(first);
          joined.set(second, first.length + zeros);
          const tail = new Uint8Array(zeros + second.length);
          tail.set(second, zeros);
          expect(crc32cCombine(nativeCrc32c(first), nativeCrc32c(tail), tail.length)).toBe(
            nativeCrc32c(joined),
          );
          expect(
            crc32cCombine(crc32cCombine(crc32c(first), crc32c(middle), zeros), crc32c(second), second.length),
          ).toBe(nativeCrc32c(joined));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('agrees with the native @node-rs/crc32 on random buffers of every size, at every alignment', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(7), (data, skip) => {
        const view = data.subarray(Math.min(skip, data.length));
        expect(crc32c(view)).toBe(nativeCrc32c(view));
        expect(fastCrc32c(view)).toBe(nativeCrc32c(view));
      }),
      { numRuns: 400, seed: 20251120 },
    );
  });

  it('computes ranges of a view (every start, length and 16-byte tail) as the native CRC does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 1200 }), fc.nat(), fc.nat(), (data, a, b) => {
        const start = a % data.length;
        const end = start + (b % (data.length - start + 1));
        const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
        const wanted = nativeCrc32c(data.subarray(start, end));
        expect(crc32cRange(view, start, end)).toBe(wanted);
        expect(fastCrc32cRange(data, view, start, end)).toBe(wanted);
      }),
      { numRuns: 600, seed: 20261121 },
    );
  });

  it('picks the native CRC for large inputs when it is installed', () => {
    expect(nativeCrc32cAvailable()).toBe(true);
    const large = new Uint8Array(NATIVE_CRC_THRESHOLD * 4).map((_, index) => index * 31);
    expect(fastCrc32c(large)).toBe(crc32c(large));
  });
});

describe('maskCrc', () => {
  it('masks as TensorFlow does: rotate right 15, add 0xA282EAD8', () => {
    // The masked CRC of 8 zero length bytes, from the empty-record frame 00000000 00000000 29039807.
    expect(maskedCrc32c(new Uint8Array(8))).toBe(0x07980329);
    expect(maskCrc(0)).toBe(0xa282ead8);
  });

  it('unmask inverts mask for every 32-bit value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (crc) => {
        expect(unmaskCrc(maskCrc(crc))).toBe(crc);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
