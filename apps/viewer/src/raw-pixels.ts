import type { Features } from '@tfpipe/core';

/** The shape of raw `uint8` pixels (what `tf.io.decode_raw` reads back): rows of pixels of channels. */
export interface PixelShape {
  /** Pixels per row. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** Bytes per pixel: 1 (grey), 3 (RGB) or 4 (RGBA). */
  readonly channels: 1 | 3 | 4;
}

/** The most pixels drawn from raw bytes (a canvas past this is refused by browsers). @default 2^26 */
export const MAX_RAW_PIXELS = 2 ** 26;

/** A single non-negative int64 value of `features[name]`, as a number. */
function size(features: Features, name: string): number | undefined {
  const feature = features[name];
  if (feature?.kind !== 'int64' || feature.value.length !== 1) return undefined;
  const value = Number(feature.value[0]);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * The shape of the bytes value of feature `key` when the record's height / width / channels features
 * say so: `<prefix>height`, `<prefix>width` and `<prefix>channels` (or `depth`; none: 1), with the
 * prefix of `key` (`image/` for `image/raw`), then `image/`, then none; the value must hold exactly
 * height × width × channels bytes.
 */
export function rawPixelShape(features: Features, key: string, length: number): PixelShape | undefined {
  const own = key.includes('/') ? key.slice(0, key.lastIndexOf('/') + 1) : '';
  for (const prefix of new Set([own, 'image/', ''])) {
    const height = size(features, `${prefix}height`);
    const width = size(features, `${prefix}width`);
    if (height === undefined || width === undefined || height * width > MAX_RAW_PIXELS) continue;
    const channels = size(features, `${prefix}channels`) ?? size(features, `${prefix}depth`) ?? 1;
    if ((channels === 1 || channels === 3 || channels === 4) && height * width * channels === length)
      return { width, height, channels };
  }
  return undefined;
}

/** Raw pixels as the RGBA a canvas's `ImageData` takes. */
export function rgbaPixels(bytes: Uint8Array, shape: PixelShape): Uint8ClampedArray<ArrayBuffer> {
  const pixels = shape.width * shape.height;
  const rgba = new Uint8ClampedArray(pixels * 4);
  for (let pixel = 0; pixel < pixels; pixel++) {
    const from = pixel * shape.channels;
    const to = pixel * 4;
    if (shape.channels === 1) {
      rgba[to] = rgba[to + 1] = rgba[to + 2] = bytes[from]!;
    } else {
      rgba[to] = bytes[from]!;
      rgba[to + 1] = bytes[from + 1]!;
      rgba[to + 2] = bytes[from + 2]!;
    }
    rgba[to + 3] = shape.channels === 4 ? bytes[from + 3]! : 255;
  }
  return rgba;
}
