import { TfpipeError } from '@tfpipe/core';
import type { SharpConstructor } from 'sharp';
import type { DecodedPixels } from '../image/decode-image.js';
import type { ImageSettings } from '../image/image-options.js';
import { lumaOf } from '../image/luma.js';

let loading: Promise<SharpConstructor> | undefined;
/** The padding of `fit: 'contain'`. */
const OPAQUE_BLACK = { r: 0, g: 0, b: 0, alpha: 1 } as const;

/** sharp, imported on first use (an optional peer: only decoding images needs it). */
function loadSharp(): Promise<SharpConstructor> {
  loading ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw new TfpipeError(
        'IMAGE_UNSUPPORTED',
        'decodeImage needs sharp in Node.js: install it (pnpm add sharp)',
        {
          stage: 'decodeImage',
          fatal: true,
          cause: error,
        },
      );
    },
  );
  return loading;
}

/**
 * Decodes one image with sharp (libvips): the first frame, EXIF orientation not applied (as
 * `tf.io.decode_image`), converted to 8-bit sRGB (grey: BT.601 luma of that), alpha dropped or added, then resized with
 * sharp's `resize({ width, height, fit, kernel })`, centred, padding opaque black.
 */
export async function sharpPixels(bytes: Uint8Array, settings: ImageSettings): Promise<DecodedPixels> {
  const sharp = await loadSharp();
  try {
    let image = sharp(bytes, { sequentialRead: true }).toColourspace('srgb');
    image = settings.channels === 4 ? image.ensureAlpha(1) : image.removeAlpha();
    const resize = settings.resize;
    if (resize !== undefined)
      image = image.resize({
        width: resize.width,
        height: resize.height,
        fit: resize.fit,
        kernel: resize.kernel,
        // Only 'contain' pads; sharp parses a given colour on every call, so 'fill' and 'cover' go without.
        ...(resize.fit === 'contain' ? { background: OPAQUE_BLACK } : {}),
      });
    const { data, info } = await image.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    const expected = settings.channels === 4 ? 4 : 3;
    if (info.channels !== expected)
      throw new TfpipeError('INTERNAL', `sharp gave ${info.channels} channels instead of ${expected}`);
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
    return {
      data: settings.channels === 1 ? lumaOf(pixels, 3) : pixels,
      height: info.height,
      width: info.width,
    };
  } catch (error) {
    if (TfpipeError.is(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    if (reason.includes('pixel limit'))
      throw new TfpipeError('IMAGE_TOO_LARGE', 'the image has too many pixels to decode', {
        reason,
        cause: error,
      });
    if (reason.includes('unsupported image format'))
      throw new TfpipeError('IMAGE_UNSUPPORTED', 'not an image format sharp reads', { reason, cause: error });
    throw new TfpipeError('IMAGE_DECODE', 'cannot decode the image', { reason, cause: error });
  }
}
