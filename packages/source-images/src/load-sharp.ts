import type { SharpConstructor } from 'sharp';

let loading: Promise<SharpConstructor> | undefined;

/**
 * sharp, imported on first use: the native addon loads only when an image is actually processed, so
 * importing `@tfpipe/source-images` (say, from a CLI that never touches images) costs nothing.
 */
export function loadSharp(): Promise<SharpConstructor> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
