import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c } from './crc32c.js';
import { wasmCrc32c } from './wasm-crc32c.js';

describe('wasmCrc32c', () => {
  const crc = wasmCrc32c()!;

  it('gives the CRC-32C check value, in an unshared memory', () => {
    expect(crc).toBeTypeOf('function');
    expect(crc(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
    expect(crc(new Uint8Array(0))).toBe(0);
  });

  it('agrees with the JavaScript CRC on random bytes, views at any offset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(15), (data, skip) => {
        const view = new Uint8Array(data.length + skip).subarray(skip);
        view.set(data);
        expect(crc(view)).toBe(crc32c(data));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees past its quarter-MiB scratch area, where it goes a part at a time', () => {
    const data = Uint8Array.from({ length: 600_001 }, (_, index) => (index * 131) & 0xff);
    expect(crc(data)).toBe(crc32c(data));
  });
});
