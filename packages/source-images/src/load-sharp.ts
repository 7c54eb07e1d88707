import { createRequire } from 'node:module';
import type { SharpConstructor } from 'sharp';

let loading: Promise<SharpConstructor> | undefined;
let requests = 0;

/**
 * sharp, loaded on first use: the native addon loads only when an image is actually decoded (or
 * its header is one the built-in reader leaves to sharp), so importing `@tfpipe/source-images`, or
 * copying JPEGs, PNGs and WebPs as they are, costs nothing.
 *
 * Loaded with `require` (sharp ships CommonJS beside ESM): its ESM build imports semver and
 * detect-libc, CommonJS packages, from ESM, which makes Node scan their sources for their exports
 * first (bench/README.md, case e).
 */
export function loadSharp(): Promise<SharpConstructor> {
  requests++;
  loading ??= Promise.resolve().then(() => createRequire(import.meta.url)('sharp') as SharpConstructor);
  return loading;
}

/** How many times sharp was asked for so far (a test shows which paths do without it). Internal. */
export function sharpRequests(): number {
  return requests;
}
