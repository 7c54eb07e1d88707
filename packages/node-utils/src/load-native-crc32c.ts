import { createRequire } from 'node:module';

/** `@node-rs/crc32`'s CRC-32C: the CRC of `input`, continuing from `initialState` (a previous CRC). */
export type NativeCrc32c = (input: Uint8Array, initialState?: number) => number;

const require = createRequire(import.meta.url);
let loaded: NativeCrc32c | null | undefined;

/**
 * The native CRC-32C of `@node-rs/crc32`, loaded once, or `null` when the package or its prebuilt
 * binary for this platform is missing: callers then take their JavaScript path, never fail.
 */
export function loadNativeCrc32c(): NativeCrc32c | null {
  if (loaded !== undefined) return loaded;
  try {
    const module = require('@node-rs/crc32') as { crc32c?: unknown };
    loaded = typeof module.crc32c === 'function' ? (module.crc32c as NativeCrc32c) : null;
  } catch {
    loaded = null;
  }
  return loaded;
}

/**
 * Where `@node-rs/crc32` is, for a worker thread to `require` itself (a thread cannot share the loaded
 * function); `''` when it cannot be found.
 */
export function nativeCrc32cPath(): string {
  try {
    return require.resolve('@node-rs/crc32');
  } catch {
    return '';
  }
}
