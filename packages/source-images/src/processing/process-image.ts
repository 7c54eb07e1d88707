import { createHash } from 'node:crypto';
import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';
import type { Sharp } from 'sharp';
import type { ImageTask } from '../inputs/image-task.js';
import type { ResolvedImageOptions } from '../image-source-options.js';
import { loadSharp } from '../load-sharp.js';
import { sniffImageFormat, truncationReason, type ImageFormat } from './sniff-image-format.js';
import { claimedSizeReason } from './claimed-size.js';
import { PixelBudget } from './pixel-budget.js';
import { placeObjects, type PlacedObject } from './place-objects.js';
import { readImageHeader, type ImageHeader } from './read-image-header.js';
import { firstLine } from './first-line.js';
import { readTaskFile } from './read-task-file.js';
import type { ImageFile } from './read-image-file.js';
import type { Size } from './box-transform.js';

/** One loaded image, ready to become a row. */
export interface ProcessedImage {
  readonly encoded: Uint8Array;
  readonly format: ImageFormat | 'raw';
  readonly size: Size;
  readonly channels: number;
  /** Hex SHA-256 of `encoded`, unless the `sha256` key is left out. */
  readonly sha256: string | undefined;
  /** Kept bytes read with `crc`: the CRC-32C of `encoded`, when the reader thread could compute it. */
  readonly crc32c?: number | undefined;
  readonly objects: readonly PlacedObject[] | undefined;
  /** Bytes read from disk. */
  readonly bytesRead: number;
  /** Objects dropped under `invalidBoxes: 'drop'`. */
  readonly droppedObjects: number;
  /**
   * Kept bytes only: hands `encoded`'s memory back to the reader thread (see `ImageFile.giveBack`),
   * for whoever is sure that nothing reads it afterwards. (A processed image's input goes back as
   * soon as sharp is done with it; its output is sharp's own buffer.)
   */
  readonly giveBack?: () => void;
}

/**
 * Reads one image (inside its root), or takes the read started for it (`read`, from
 * {@link readTaskFile}), checks it and, when asked, decodes, orients, resizes, converts and
 * re-encodes it with sharp; then places its annotated boxes on the result. A decode waits for its
 * pixels in `budget` (the run's, shared by the images in flight).
 * @throws TfpipeError `PATH_ESCAPE`, `INPUT_NOT_FOUND`, `IMAGE_DECODE`, `IMAGE_UNSUPPORTED`,
 * `IMAGE_TOO_LARGE`, `IMAGE_ANNOTATION`, `IMAGE_BOX`, all carrying `position`
 */
export async function processImage(
  task: ImageTask,
  options: ResolvedImageOptions,
  position: Position,
  read: Promise<ImageFile> = readTaskFile(task, options, position),
  budget: PixelBudget = new PixelBudget(options.maxPixels),
): Promise<ProcessedImage> {
  const file = await read;
  try {
    return await loaded(task, options, position, file, budget);
  } catch (error) {
    // A failed image's bytes go nowhere else. Every sharp call on them has settled by now.
    file.giveBack?.();
    throw error;
  }
}

/**
 * {@link processImage} once the file is read.
 *
 * The file's buffer may go back to the reader thread (`file.giveBack`) once sharp has settled on it:
 * sharp reads a buffer input only until its promise settles, and keeps no reference to it after
 * (it would otherwise read memory that V8 had freed). libvips' operation cache may keep the load
 * operation, but it matches a later call by the identity of the blob that wraps the memory, which
 * the cache itself holds, never by the memory's address or contents: a recycled buffer cannot hit
 * it. This is why a decoded image's input goes back at once, whether or not the run lends.
 */
async function loaded(
  task: ImageTask,
  options: ResolvedImageOptions,
  position: Position,
  file: ImageFile,
  budget: PixelBudget,
): Promise<ProcessedImage> {
  const hash = options.keys.sha256 !== false;
  const fail = (
    code: 'IMAGE_DECODE' | 'IMAGE_UNSUPPORTED' | 'IMAGE_TOO_LARGE',
    detail: string,
    reason?: string,
    cause?: unknown,
  ): TfpipeError =>
    new TfpipeError(code, detail, {
      stage: 'imageSource',
      position,
      ...(reason === undefined ? {} : { reason }),
      cause,
    });
  const data = file.data;
  if (data.length === 0) throw fail('IMAGE_DECODE', 'empty image file', 'the file has 0 bytes');
  const sniffed = sniffImageFormat(data);
  if (sniffed === undefined) {
    const head = [...data.subarray(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
    throw fail(
      'IMAGE_UNSUPPORTED',
      'not an image',
      `the content is not JPEG, PNG, WebP or GIF (starts ${head})`,
    );
  }
  if (sniffed !== 'jpeg' && sniffed !== 'png' && sniffed !== 'webp' && sniffed !== 'gif') {
    throw fail(
      'IMAGE_UNSUPPORTED',
      `unsupported image format ${sniffed}`,
      'JPEG, PNG, WebP and GIF are read',
    );
  }
  let header = readImageHeader(sniffed, data);
  if (header === undefined) {
    header = await sharpHeader(data, fail, sniffed);
  }
  const stored = { width: header.width, height: header.height };
  if (stored.width * stored.height > options.maxPixels) {
    throw fail(
      'IMAGE_TOO_LARGE',
      `image of ${stored.width}x${stored.height} pixels`,
      `more than maxPixels (${options.maxPixels})`,
    );
  }
  // After the pixel limit: a claim over it is refused as too large either way.
  const claimed = claimedSizeReason(sniffed, data);
  if (claimed !== undefined) throw fail('IMAGE_DECODE', `corrupt ${sniffed} image`, claimed);
  const { orientation } = header;
  let result: Omit<ProcessedImage, 'objects' | 'droppedObjects'>;
  if (!options.decode) {
    const truncated = truncationReason(sniffed, data);
    if (truncated !== undefined) throw fail('IMAGE_DECODE', `corrupt ${sniffed} image`, truncated);
    if (options.verify === 'decode') {
      const sharp = await loadSharp();
      const giveBackPixels = await budget.take(stored.width * stored.height);
      try {
        await run(sharp(data, { limitInputPixels: options.maxPixels }).raw().toBuffer(), fail, sniffed);
      } finally {
        giveBackPixels();
      }
    }
    result = {
      encoded: data,
      format: sniffed,
      size: stored,
      channels: header.channels,
      sha256: file.sha256,
      crc32c: file.crc32c,
      bytesRead: data.length,
      ...(file.giveBack === undefined ? {} : { giveBack: file.giveBack }),
    };
  } else {
    const bytesRead = data.length;
    const sharp = await loadSharp();
    const giveBackPixels = await budget.take(stored.width * stored.height);
    let output;
    try {
      output = await run(
        pipeline(sharp(data, { limitInputPixels: options.maxPixels }), options, sniffed).toBuffer({
          resolveWithObject: true,
        }),
        fail,
        sniffed,
      );
    } finally {
      giveBackPixels();
    }
    // Sharp is done with the input (see above); nothing else here reads it: `data` is empty from now on.
    file.giveBack?.();
    const format = options.raw ? 'raw' : (options.format ?? defaultFormat(sniffed));
    result = {
      encoded: output.data,
      format,
      size: { width: output.info.width, height: output.info.height },
      // WebP stores only RGB or RGBA: a grey image decodes with 3 channels.
      channels: format === 'webp' ? (output.info.channels % 2 === 0 ? 4 : 3) : output.info.channels,
      sha256: hash ? sha256Hex(output.data) : undefined,
      bytesRead,
    };
  }
  if (task.objects === undefined) return { ...result, objects: undefined, droppedObjects: 0 };
  const { placed, dropped } = placeObjects(
    task.objects,
    task.declaredSize,
    { stored, orientation, oriented: options.autoOrient, resize: options.resize, output: result.size },
    options.invalidBoxes,
    position,
  );
  return { ...result, objects: placed, droppedObjects: dropped };
}

/**
 * Lowercase hex SHA-256, as the TF Object Detection API writes `image/key/sha256`: of a processed
 * image's output, which is small (kept files are hashed on the reader thread, see readImageFile).
 */
export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The header as sharp's `metadata()` gives it, for what {@link readImageHeader} leaves open. */
async function sharpHeader(
  data: Uint8Array,
  fail: (code: 'IMAGE_DECODE', detail: string, reason?: string, cause?: unknown) => TfpipeError,
  format: ImageFormat,
): Promise<ImageHeader> {
  const sharp = await loadSharp();
  // Header only, so no pixel limit here: the caller's check names the size (sharp's error would not).
  const metadata = await run(sharp(data, { limitInputPixels: false }).metadata(), fail, format);
  return { ...metadata, orientation: metadata.orientation ?? 1 };
}

function pipeline(image: Sharp, options: ResolvedImageOptions, input: ImageFormat): Sharp {
  let result = options.autoOrient ? image.autoOrient() : image;
  if (options.resize !== undefined) result = result.resize(options.resize);
  if (options.channels === 'grayscale') result = result.removeAlpha().toColourspace('b-w');
  if (options.channels === 'rgb') result = result.removeAlpha().toColourspace('srgb');
  if (options.raw) return result.raw();
  const format = options.format ?? defaultFormat(input);
  if (format === 'jpeg') return result.jpeg({ quality: options.quality });
  if (format === 'webp') return result.webp({ quality: options.quality });
  return result.png();
}

function defaultFormat(input: ImageFormat): 'jpeg' | 'png' | 'webp' {
  return input === 'gif' ? 'png' : input;
}

async function run<T>(
  promise: Promise<T>,
  fail: (code: 'IMAGE_DECODE', detail: string, reason?: string, cause?: unknown) => TfpipeError,
  format: string,
): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw fail('IMAGE_DECODE', `corrupt ${format} image`, firstLine((error as Error).message), error);
  }
}
