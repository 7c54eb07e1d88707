import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadNativeCrc32c, nativeCrc32cPath } from './load-native-crc32c.js';

describe('loadNativeCrc32c', () => {
  it('loads @node-rs/crc32 once, giving the published CRC-32C check value of "123456789"', () => {
    const crc32c = loadNativeCrc32c();
    expect(crc32c).not.toBeNull();
    expect(crc32c!(new TextEncoder().encode('123456789')) >>> 0).toBe(0xe3069283);
    expect(loadNativeCrc32c()).toBe(crc32c);
  });

  it('continues a running CRC from a previous one', () => {
    const crc32c = loadNativeCrc32c()!;
    const bytes = new TextEncoder().encode('123456789');
    expect(crc32c(bytes.subarray(4), crc32c(bytes.subarray(0, 4))) >>> 0).toBe(0xe3069283);
  });

  it('gives worker threads a path they can require', () => {
    const path = nativeCrc32cPath();
    expect(path).not.toBe('');
    const module = createRequire(import.meta.url)(path) as { crc32c: unknown };
    expect(module.crc32c).toBe(loadNativeCrc32c());
  });
});
