import { TfpipeError } from '@tfpipe/core';
import type { DecodedPixels } from './decode-image.js';
import type { ImageSettings } from './image-options.js';
import { lumaOf } from './luma.js';

/** Where the scaled image lands on the target canvas (sharp's centred `fit` arithmetic). */
interface Placement {
  readonly sx: number;
  readonly sy: number;
  readonly sw: number;
  readonly sh: number;
  readonly dx: number;
  readonly dy: number;
  readonly dw: number;
  readonly dh: number;
}

/** The source and destination rectangles of a resize of `width × height` to the target with `fit`. */
export function placement(
  width: number,
  height: number,
  target: { readonly width: number; readonly height: number; readonly fit: 'fill' | 'cover' | 'contain' },
): Placement {
  const whole = { sx: 0, sy: 0, sw: width, sh: height };
  if (target.fit === 'fill') return { ...whole, dx: 0, dy: 0, dw: target.width, dh: target.height };
  const scale =
    target.fit === 'cover'
      ? Math.max(target.width / width, target.height / height)
      : Math.min(target.width / width, target.height / height);
  const scaledWidth = Math.max(1, Math.round(width * scale));
  const scaledHeight = Math.max(1, Math.round(height * scale));
  if (target.fit === 'contain') {
    const dx = Math.floor((target.width - scaledWidth) / 2);
    const dy = Math.floor((target.height - scaledHeight) / 2);
    return { ...whole, dx, dy, dw: scaledWidth, dh: scaledHeight };
  }
  // cover: crop the overflow equally from both sides, in source pixels.
  const left = Math.floor((scaledWidth - target.width + 1) / 2) / scale;
  const top = Math.floor((scaledHeight - target.height + 1) / 2) / scale;
  return {
    sx: left,
    sy: top,
    sw: target.width / scale,
    sh: target.height / scale,
    dx: 0,
    dy: 0,
    dw: target.width,
    dh: target.height,
  };
}

/**
 * Decodes one image with the browser: `createImageBitmap` (EXIF orientation not applied, no colour
 * space conversion, alpha not premultiplied), drawn (and scaled) on an `OffscreenCanvas` and read back
 * as RGBA, then reduced to the asked channels (grey: ITU-R BT.601 luma, as `tf.image.rgb_to_grayscale`).
 */
export async function webPixels(bytes: Uint8Array, settings: ImageSettings): Promise<DecodedPixels> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function')
    throw new TfpipeError(
      'IMAGE_UNSUPPORTED',
      'decodeImage needs createImageBitmap and OffscreenCanvas (a browser or a worker); in Node.js import it from @tfpipe/dataset/node',
      { stage: 'decodeImage', fatal: true },
    );
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      imageOrientation: 'none' as ImageOrientation,
      colorSpaceConversion: 'none',
      premultiplyAlpha: 'none',
    });
  } catch (error) {
    throw new TfpipeError('IMAGE_DECODE', 'cannot decode the image', {
      reason: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  }
  try {
    const resize = settings.resize;
    const width = resize?.width ?? bitmap.width;
    const height = resize?.height ?? bitmap.height;
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (context === null) throw new TfpipeError('IMAGE_UNSUPPORTED', 'no 2D canvas context here');
    if (resize === undefined) context.drawImage(bitmap, 0, 0);
    else {
      context.imageSmoothingEnabled = resize.kernel !== 'nearest';
      context.imageSmoothingQuality = 'high';
      if (resize.fit === 'contain') {
        context.fillStyle = '#000';
        context.fillRect(0, 0, width, height);
      }
      const place = placement(bitmap.width, bitmap.height, resize);
      context.drawImage(
        bitmap,
        place.sx,
        place.sy,
        place.sw,
        place.sh,
        place.dx,
        place.dy,
        place.dw,
        place.dh,
      );
    }
    const rgba = context.getImageData(0, 0, width, height).data;
    return { data: toChannels(rgba, settings.channels), height, width };
  } finally {
    bitmap.close();
  }
}

/** RGBA bytes reduced to 1 (luma), 3 (RGB) or 4 channels. */
export function toChannels(rgba: Uint8ClampedArray, channels: 1 | 3 | 4): Uint8Array {
  if (channels === 4) return new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length);
  if (channels === 1) return lumaOf(rgba, 4);
  const pixels = rgba.length / 4;
  const out = new Uint8Array(pixels * 3);
  for (let pixel = 0; pixel < pixels; pixel++) {
    out[pixel * 3] = rgba[pixel * 4]!;
    out[pixel * 3 + 1] = rgba[pixel * 4 + 1]!;
    out[pixel * 3 + 2] = rgba[pixel * 4 + 2]!;
  }
  return out;
}
