import { TfpipeError } from '@tfpipe/core';
import type { BatchOrigin } from '../parse/record-position.js';
import { MAX_WORKERS } from '../workers/parse-workers.js';

/** The element type of a decoded image: bytes as stored, or floats scaled to [0, 1]. */
export type ImageDtype = 'uint8' | 'float32';

/** The typed array that holds an image tensor of dtype `D`. */
export type ImageArray<D extends ImageDtype> = [D] extends ['uint8']
  ? Uint8Array
  : [D] extends ['float32']
    ? Float32Array
    : Uint8Array | Float32Array;

/**
 * How a resize maps the image onto `width` × `height` (sharp's `fit`, centred):
 * `'fill'` stretches to exactly that size, ignoring the aspect ratio (what `tf.image.resize` does);
 * `'cover'` keeps the aspect ratio, scales to cover the target and crops the overflow equally from both
 * sides; `'contain'` keeps the aspect ratio, scales to fit inside and pads both sides with opaque black.
 */
export type ImageFit = 'fill' | 'cover' | 'contain';

/**
 * The interpolation kernel (sharp's `kernel`): `'nearest'` neighbour, `'linear'` (bilinear), `'cubic'`
 * (Catmull-Rom), `'lanczos3'`. In browsers `'nearest'` turns canvas smoothing off and the others use the
 * canvas's `imageSmoothingQuality: 'high'` (the browser's own filter).
 */
export type ImageKernel = 'nearest' | 'linear' | 'cubic' | 'lanczos3';

/** The target size of a resize, in pixels, and how the image is fitted to it. */
export interface ImageResize {
  /** Output height in pixels (1 to 16383). */
  readonly height: number;
  /** Output width in pixels (1 to 16383). */
  readonly width: number;
  /** How the image is fitted to the target. @default 'fill' */
  readonly fit?: ImageFit;
  /** The interpolation kernel. @default 'linear' */
  readonly kernel?: ImageKernel;
}

/** Options of `decodeImage` and `decodeImages`. */
export interface DecodeImageOptions<D extends ImageDtype = ImageDtype> {
  /**
   * Channels of the output: 1 (grey), 3 (RGB) or 4 (RGBA). A grey image is expanded to RGB, an alpha
   * channel is dropped (not composited), as `tf.io.decode_image(channels=…)` does. Unlike TensorFlow's
   * `0` ("as stored") there is no default per file: a batch needs one shape.
   * @default 3
   */
  readonly channels?: 1 | 3 | 4;
  /** Resize every image to this size; without it each image keeps its own size. @default none */
  readonly resize?: ImageResize;
  /**
   * `'uint8'`: the stored 0–255 values in a `Uint8Array`. `'float32'`: the values divided by 255 in a
   * `Float32Array` (`tf.image.convert_image_dtype`'s scaling).
   * @default 'uint8'
   */
  readonly dtype?: D;
  /** The feature the bytes came from, named in errors (`position.field`). @default none */
  readonly feature?: string;
  /** Where bare byte arrays came from (file, index of the first record), named in errors. @default none */
  readonly origin?: BatchOrigin;
  /**
   * Module Web Workers that decode the images (the main entry, in browsers whose workers have
   * `createImageBitmap` and `OffscreenCanvas`): each image goes to the worker with the fewest waiting.
   * 1 decodes on this thread. At most 256. The Node entry takes only 1: sharp already decodes on its
   * own threads.
   * @default 1
   */
  readonly workers?: number;
}

/** The checked options a decoder works with. */
export interface ImageSettings {
  readonly channels: 1 | 3 | 4;
  readonly resize:
    | {
        readonly height: number;
        readonly width: number;
        readonly fit: ImageFit;
        readonly kernel: ImageKernel;
      }
    | undefined;
  readonly dtype: ImageDtype;
  /** Web Workers that decode (1: this thread). */
  readonly workers: number;
}

const FITS: readonly ImageFit[] = ['fill', 'cover', 'contain'];
const KERNELS: readonly ImageKernel[] = ['nearest', 'linear', 'cubic', 'lanczos3'];
/** The largest side libvips (and so sharp) can write, and a size every canvas accepts. */
const MAX_SIDE = 16383;

function invalid(message: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', message, { stage: 'decodeImage', fatal: true });
}

/** Checks the options, naming the one that is wrong. */
export function checkImageOptions(options: DecodeImageOptions | undefined): ImageSettings {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw invalid('decodeImage options must be an object');
  const channels = options?.channels ?? 3;
  if (channels !== 1 && channels !== 3 && channels !== 4)
    throw invalid(`channels must be 1, 3 or 4, got ${JSON.stringify(channels)}`);
  const dtype = options?.dtype ?? 'uint8';
  if (dtype !== 'uint8' && dtype !== 'float32')
    throw invalid(`dtype must be 'uint8' or 'float32', got ${JSON.stringify(dtype)}`);
  if (options?.feature !== undefined && typeof options.feature !== 'string')
    throw invalid(`feature must be a string, got ${JSON.stringify(options.feature)}`);
  const workers = options?.workers ?? 1;
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > MAX_WORKERS)
    throw invalid(`workers must be an integer from 1 to ${MAX_WORKERS}, got ${String(workers)}`);
  const resize = options?.resize;
  if (resize === undefined) return { channels, dtype, workers, resize: undefined };
  if (typeof resize !== 'object' || resize === null)
    throw invalid('resize must be an object { height, width, fit?, kernel? }');
  for (const side of ['height', 'width'] as const) {
    const value = resize[side];
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_SIDE)
      throw invalid(`resize.${side} must be an integer from 1 to ${MAX_SIDE} pixels, got ${String(value)}`);
  }
  const fit = resize.fit ?? 'fill';
  if (!FITS.includes(fit))
    throw invalid(`resize.fit must be one of ${FITS.join(', ')}, got ${JSON.stringify(fit)}`);
  const kernel = resize.kernel ?? 'linear';
  if (!KERNELS.includes(kernel))
    throw invalid(`resize.kernel must be one of ${KERNELS.join(', ')}, got ${JSON.stringify(kernel)}`);
  return { channels, dtype, workers, resize: { height: resize.height, width: resize.width, fit, kernel } };
}
