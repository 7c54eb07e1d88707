import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import type { RecordErrorOptions } from '@tfpipe/core';
import { resolveImageKeys, type ImageKeyRole, type ImageKeys } from './image-keys.js';
import type { ResizeFit } from './processing/box-transform.js';
import type { InvalidBoxPolicy } from './processing/place-objects.js';
import { checkImageSourceOptions } from './image-options-schema.js';

/** The default of {@link ImageSourceOptions.maxFileBytes}: 256 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** An output encoding. */
export type OutputFormat = 'jpeg' | 'png' | 'webp';

/**
 * Options of {@link imageSource}. Give exactly one input: `folder`, `list`, `coco` or `voc`.
 * With none of `resize`, `channels`, `format`, `quality`, `raw` and `autoOrient`, each file's bytes
 * are written unchanged (no decode, no re-encode).
 */
export interface ImageSourceOptions extends RecordErrorOptions {
  /** A class-folder tree `folder/<class>/<image>` (Keras `image_dataset_from_directory`, torchvision `ImageFolder`). */
  readonly folder?: string;
  /**
   * A CSV (header `path,label,…`, parsed by `@tfpipe/source-csv`) or JSON Lines (`.jsonl`) list of
   * images; paths are relative to its directory.
   */
  readonly list?: string;
  /** A COCO instances JSON file. Images are looked up in `images`. */
  readonly coco?: string;
  /** A directory of Pascal VOC XML files. Images are looked up in `images`. */
  readonly voc?: string;
  /**
   * The directory image paths are relative to, and which they may not leave.
   * @default the list's directory (`list`); the COCO file's directory (`coco`); `<voc>/../JPEGImages` (`voc`)
   */
  readonly images?: string;
  /** Class names in id order (ids `labelBase`, `labelBase + 1`, …), instead of the sorted names found. COCO uses its own category ids. */
  readonly classNames?: readonly string[];
  /**
   * The id of the first class. The TF Object Detection API reserves 0 for the background.
   * @default 0 for `folder` and `list`, 1 for `voc`
   */
  readonly labelBase?: number;
  /**
   * File extensions (any case) a class folder's images may have; the format itself is read from the content.
   * @default ['.jpg', '.jpeg', '.png', '.webp', '.gif', '.bmp']
   */
  readonly extensions?: readonly string[];
  /** Resize (after EXIF orientation): target `width` and `height` in pixels and sharp's `fit` (@default 'cover'). */
  readonly resize?: { readonly width: number; readonly height: number; readonly fit?: ResizeFit };
  /** Convert to 3-channel sRGB or 1-channel grey (alpha removed). @default unchanged */
  readonly channels?: 'rgb' | 'grayscale';
  /** Re-encode as this format. @default the input's format when it is JPEG, PNG or WebP, else PNG */
  readonly format?: OutputFormat;
  /** JPEG/WebP quality, 1 to 100. @default 90 */
  readonly quality?: number;
  /** Emit decoded uint8 pixels, height × width × channels, plus `image/shape`; `image/format` is `raw`. @default false */
  readonly raw?: boolean;
  /**
   * Apply the EXIF orientation (rotate/flip the pixels and the boxes) when the image is decoded.
   * `true` alone makes every image decode and re-encode.
   * @default true when any other processing option is set; kept-original bytes are never rotated
   */
  readonly autoOrient?: boolean;
  /**
   * Refuse images with more pixels (width × height) than this: `IMAGE_TOO_LARGE`. It also bounds the
   * run: images being decoded at once hold at most this many pixels together (a larger share waits
   * for the others to finish; one image alone always runs).
   * @default 268402689 (sharp's limit, 16383²)
   */
  readonly maxPixels?: number;
  /**
   * Refuse image files of more bytes than this, from their size before they are opened:
   * `IMAGE_TOO_LARGE`. At most 2147483647 (2 GiB − 1).
   * @default 268435456 (256 MiB)
   */
  readonly maxFileBytes?: number;
  /**
   * Accept an input that lists no image at all (an empty folder or list): the stream then just
   * closes. Otherwise that is a fatal error naming what was found, never an empty output.
   * @default false
   */
  readonly allowEmpty?: boolean;
  /**
   * Paths left out of a class-folder scan (compared after resolving symlinks), e.g. the output
   * directory when it lies inside `folder`, so that a rerun does not read it as a class. A
   * path that is not inside `folder` changes nothing; an excluded folder holding images is an
   * `INVALID_OPTION` error (it would drop them without a word).
   * @default []
   */
  readonly exclude?: readonly string[];
  /**
   * How kept-original images are checked: `'structure'` reads the header (without sharp, unless the
   * built-in reader leaves it to sharp) and checks the file ends where its format says (catches
   * truncation); `'decode'` also decodes every pixel with sharp (catches corrupt data, costs a
   * decode). Processed images are always fully decoded.
   * @default 'structure'
   */
  readonly verify?: 'structure' | 'decode';
  /** Boxes with no area or wholly outside the image: `'error'` (IMAGE_BOX) or `'drop'` the object (counted). @default 'error' */
  readonly invalidBoxes?: InvalidBoxPolicy;
  /** VOC: leave out objects marked `difficult`. @default false */
  readonly ignoreDifficult?: boolean;
  /**
   * Images read and processed at once; output order stays input order. When images are decoded,
   * as many more files are read ahead.
   * @default os.availableParallelism(); when images are decoded, at least 4
   */
  readonly concurrency?: number;
  /** Feature names by role (see DEFAULT_IMAGE_KEYS); `false` leaves a feature out. */
  readonly keys?: Partial<Record<ImageKeyRole, string | false>>;
  /**
   * Read only the images at these positions of the input's order, each `[start, end)` (0-based,
   * end excluded), ranges in the order given: what one shard of a plan reads. Error positions keep
   * the whole input's `recordIndex`; the label map is still the whole input's. A range beyond the
   * input is `INPUT_CHANGED`.
   * @default the whole input
   */
  readonly ranges?: readonly (readonly [number, number])[];
  /**
   * The SHA-256 (hex) the input's listing must have, as {@link imageListing} gives it: a listing
   * that differs (an image, class, label or annotation added, removed or changed since) is a fatal
   * `INPUT_CHANGED` naming the input, before any image is read.
   * @default not checked
   */
  readonly listingSha256?: string;
}

/**
 * Images decoded at once by default, at least: sharp's jobs run on libuv's thread pool (4 threads
 * unless `UV_THREADPOOL_SIZE` says otherwise) and, with glibc's allocator, libvips works each image
 * on one thread, so with only as many images as cores a core idles whenever one image finishes and
 * the next has yet to start (its read, its record on the main thread).
 */
const DECODE_IN_FLIGHT = 4;

/** The input kind. */
export type ImageInputKind = 'folder' | 'list' | 'coco' | 'voc';

/** Options after checking, with defaults filled in. Internal. */
export interface ResolvedImageOptions {
  readonly input: ImageInputKind;
  readonly inputPath: string;
  readonly images: string;
  readonly classNames: readonly string[] | undefined;
  readonly labelBase: number;
  readonly extensions: readonly string[];
  readonly decode: boolean;
  readonly resize: { readonly width: number; readonly height: number; readonly fit: ResizeFit } | undefined;
  readonly channels: 'rgb' | 'grayscale' | undefined;
  readonly format: OutputFormat | undefined;
  readonly quality: number;
  readonly raw: boolean;
  readonly autoOrient: boolean;
  readonly maxPixels: number;
  readonly maxFileBytes: number;
  readonly allowEmpty: boolean;
  readonly exclude: readonly string[];
  readonly verify: 'structure' | 'decode';
  readonly invalidBoxes: InvalidBoxPolicy;
  readonly ignoreDifficult: boolean;
  readonly concurrency: number;
  readonly keys: ImageKeys;
  readonly ranges: readonly (readonly [number, number])[] | undefined;
  readonly listingSha256: string | undefined;
}

/**
 * Checks every option (`checkImageSourceOptions`: the option schema is the one place options are
 * checked) and fills in defaults.
 * @throws TfpipeError `INVALID_OPTION` (fatal), naming the option
 */
export function resolveImageOptions(options: ImageSourceOptions): ResolvedImageOptions {
  checkImageSourceOptions(options);
  const input = (['folder', 'list', 'coco', 'voc'] as const).find((name) => options[name] !== undefined)!;
  const inputPath = options[input]!;
  const images = path.resolve(
    options.images ??
      (input === 'folder'
        ? inputPath
        : input === 'voc'
          ? path.join(inputPath, '..', 'JPEGImages')
          : path.dirname(inputPath)),
  );
  const resize = options.resize;
  const extensions = (options.extensions ?? ['.jpg', '.jpeg', '.png', '.webp', '.gif', '.bmp']).map(
    (extension) => extension.toLowerCase(),
  );
  const ranges = options.ranges;
  const decode =
    options.resize !== undefined ||
    options.channels !== undefined ||
    options.format !== undefined ||
    options.quality !== undefined ||
    options.raw === true ||
    options.autoOrient === true;
  return {
    input,
    inputPath: path.resolve(inputPath),
    images,
    classNames: options.classNames,
    labelBase: options.labelBase ?? (input === 'voc' ? 1 : 0),
    extensions,
    decode,
    resize:
      resize === undefined
        ? undefined
        : { width: resize.width, height: resize.height, fit: resize.fit ?? 'cover' },
    channels: options.channels,
    format: options.format,
    quality: options.quality ?? 90,
    raw: options.raw === true,
    autoOrient: decode && options.autoOrient !== false,
    maxPixels: options.maxPixels ?? 268_402_689,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    allowEmpty: options.allowEmpty === true,
    exclude: (options.exclude ?? []).map((item) => path.resolve(item)),
    verify: options.verify ?? 'structure',
    invalidBoxes: options.invalidBoxes ?? 'error',
    ignoreDifficult: options.ignoreDifficult === true,
    concurrency:
      options.concurrency ??
      (decode ? Math.max(DECODE_IN_FLIGHT, availableParallelism()) : availableParallelism()),
    keys: resolveImageKeys(options.keys),
    ranges,
    listingSha256: options.listingSha256,
  };
}
