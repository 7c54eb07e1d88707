import type { SharpConstructor } from 'sharp';

let loading: Promise<SharpConstructor> | undefined;
let requests = 0;

/**
 * sharp, imported on first use: the native addon loads only when an image is actually decoded (or
 * its header is one the built-in reader leaves to sharp), so importing `@tfpipe/source-images`, or
 * copying JPEGs, PNGs and WebPs as they are, costs nothing.
 */
export function loadSharp(): Promise<SharpConstructor> {
  requests++;
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}

/** How many times sharp was asked for so far (a test shows which paths do without it). Internal. */
export function sharpRequests(): number {
  return requests;
}
