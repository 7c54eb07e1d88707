import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';
import { batchPosition } from '../batch-positions.js';
import type { PositionAt } from '../batch-positions.js';
import type { BatchOrigin } from '../parse/record-position.js';
import { checkImageOptions } from './image-options.js';
import type { DecodeImageOptions, ImageArray, ImageDtype, ImageSettings } from './image-options.js';

/**
 * A decoded image or batch of images: HWC pixels in row-major order, as a dense tensor. One image has
 * `shape` `[height, width, channels]`, a batch `[batch, height, width, channels]`, so
 * `new ort.Tensor(dtype, data, shape)` and `tf.tensor(data, shape, dtype)` take it as it is.
 */
export interface ImageTensor<D extends ImageDtype = ImageDtype> {
  readonly kind: 'dense';
  readonly dtype: D;
  readonly data: ImageArray<D>;
  /** `[height, width, channels]`, or `[batch, height, width, channels]` for a batch. */
  readonly shape: readonly number[];
}

/** One image's pixels as a decoder returns them: `height × width × channels` bytes. */
export interface DecodedPixels {
  readonly data: Uint8Array;
  readonly height: number;
  readonly width: number;
}

/** Decodes (and resizes) one image to 8-bit pixels with the settings' channels; throws on bad bytes. */
export type PixelDecoder = (bytes: Uint8Array, settings: ImageSettings) => Promise<DecodedPixels>;

/** `decodeImage`: one image, or a batch of images stacked into one tensor. */
export interface DecodeImage {
  <D extends ImageDtype = 'uint8'>(
    bytes: Uint8Array,
    options?: DecodeImageOptions<D>,
  ): Promise<ImageTensor<D>>;
  <D extends ImageDtype = 'uint8'>(
    images: readonly Uint8Array[],
    options?: DecodeImageOptions<D>,
  ): Promise<ImageTensor<D>>;
}

const STAGE = 'decodeImage';
/** `i / 255` as float32, for each byte. */
const UNIT_FLOATS = Float32Array.from({ length: 256 }, (_, value) => value / 255);

/** Decodes on `count` workers (the option `workers`), where an entry has them. */
export type WorkerPixelDecoder = (count: number) => PixelDecoder;

/**
 * The decoder for `settings`: `decode`, or with `workers` > 1 the entry's `onWorkers`.
 * @throws TfpipeError `INVALID_OPTION` for `workers` > 1 where the entry has no workers
 */
export function decoderFor(
  decode: PixelDecoder,
  onWorkers: WorkerPixelDecoder | undefined,
  settings: ImageSettings,
): PixelDecoder {
  if (settings.workers === 1) return decode;
  if (onWorkers === undefined)
    throw new TfpipeError(
      'INVALID_OPTION',
      `workers must be 1 here (got ${settings.workers}): sharp already decodes on its own threads; workers are the browser entry's Web Workers`,
      { stage: STAGE, fatal: true },
    );
  return onWorkers(settings.workers);
}

/**
 * A `decodeImage` that decodes with `decode` (sharp in Node, the browser's decoder on the web), or on
 * `onWorkers` when the options ask for workers.
 */
export function imageDecoder(base: PixelDecoder, onWorkers?: WorkerPixelDecoder): DecodeImage {
  return async (input: Uint8Array | readonly Uint8Array[], options?: DecodeImageOptions) => {
    const settings = checkImageOptions(options);
    const decode = decoderFor(base, onWorkers, settings);
    const origin = options?.origin ?? {};
    const positionAt = (index: number): Position => originPosition(origin, index);
    if (input instanceof Uint8Array) {
      const single = (): Position => (options?.origin === undefined ? {} : positionAt(0));
      const [pixels] = await decodeAll(decode, [input], settings, single, options?.feature);
      return toTensor([pixels!.height, pixels!.width, settings.channels], pixels!.data, settings);
    }
    if (!Array.isArray(input))
      throw new TfpipeError('INVALID_OPTION', 'decodeImage takes a Uint8Array or an array of them', {
        stage: STAGE,
        fatal: true,
      });
    return decodeBatch(decode, input, settings, positionAt, options?.feature);
  };
}

/**
 * Decodes a batch's images (all at once: sharp spreads them over its threads) and stacks them into
 * one `[batch, height, width, channels]` tensor. The first failing image in batch order is the error.
 */
export async function decodeBatch(
  decode: PixelDecoder,
  images: readonly Uint8Array[],
  settings: ImageSettings,
  positionAt: PositionAt,
  feature: string | undefined,
): Promise<ImageTensor> {
  const decoded = await decodeAll(decode, images, settings, positionAt, feature);
  const first = decoded[0];
  const height = first?.height ?? settings.resize?.height ?? 0;
  const width = first?.width ?? settings.resize?.width ?? 0;
  const imageBytes = height * width * settings.channels;
  const stacked = new Uint8Array(imageBytes * decoded.length);
  for (let index = 0; index < decoded.length; index++) {
    const pixels = decoded[index]!;
    if (pixels.height !== height || pixels.width !== width) {
      const shapeOf = (image: DecodedPixels): string =>
        `[${image.height}, ${image.width}, ${settings.channels}]`;
      throw new TfpipeError(
        'FEATURE_TYPE',
        `Cannot batch images of different sizes: image 0 has shape ${shapeOf(first!)} but image ${index} has shape ${shapeOf(pixels)}`,
        {
          stage: STAGE,
          position: located(positionAt(index), feature),
          reason: 'give decodeImage a resize to batch images of different sizes',
        },
      );
    }
    stacked.set(pixels.data, index * imageBytes);
  }
  return toTensor([decoded.length, height, width, settings.channels], stacked, settings);
}

async function decodeAll(
  decode: PixelDecoder,
  images: readonly Uint8Array[],
  settings: ImageSettings,
  positionAt: PositionAt,
  feature: string | undefined,
): Promise<DecodedPixels[]> {
  const results = await Promise.allSettled(
    images.map((bytes) =>
      bytes instanceof Uint8Array
        ? decode(bytes, settings)
        : Promise.reject(new TfpipeError('IMAGE_DECODE', 'not an image', { reason: 'not a Uint8Array' })),
    ),
  );
  const decoded: DecodedPixels[] = [];
  for (let index = 0; index < results.length; index++) {
    const result = results[index]!;
    if (result.status === 'rejected') throw locate(result.reason, positionAt(index), feature);
    const pixels = result.value;
    if (pixels.data.length !== pixels.height * pixels.width * settings.channels)
      throw new TfpipeError('INTERNAL', 'the image decoder returned the wrong number of bytes', {
        stage: STAGE,
        position: located(positionAt(index), feature),
      });
    decoded.push(pixels);
  }
  return decoded;
}

function toTensor(shape: readonly number[], bytes: Uint8Array, settings: ImageSettings): ImageTensor {
  if (settings.dtype === 'uint8') return { kind: 'dense', dtype: 'uint8', data: bytes, shape };
  const floats = new Float32Array(bytes.length);
  for (let index = 0; index < bytes.length; index++) floats[index] = UNIT_FLOATS[bytes[index]!]!;
  return { kind: 'dense', dtype: 'float32', data: floats, shape };
}

function located(position: Position, feature: string | undefined): Position {
  return feature === undefined ? position : { ...position, field: feature };
}

/** The decoder's error (or anything it threw) as a `TfpipeError` at the record's position. */
function locate(error: unknown, position: Position, feature: string | undefined): TfpipeError {
  const where = located(position, feature);
  if (TfpipeError.is(error))
    return new TfpipeError(error.code, error.detail, {
      stage: STAGE,
      position: { ...error.position, ...where },
      cause: error,
      ...(error.reason === undefined ? {} : { reason: error.reason }),
    });
  const reason = error instanceof Error ? error.message : String(error);
  return new TfpipeError('IMAGE_DECODE', 'cannot decode the image', {
    stage: STAGE,
    position: where,
    cause: error,
    reason,
  });
}

/** The position of image `index` of bare byte arrays, from `origin`. */
function originPosition(origin: BatchOrigin, index: number): Position {
  return {
    ...(origin.file === undefined ? {} : { file: origin.file }),
    recordIndex: (origin.firstRecordIndex ?? 0) + index,
  };
}

/** The position of image `index` of a parsed batch: the batch's record, else `origin`. */
export function batchImagePosition(batch: object, origin: BatchOrigin): PositionAt {
  return (index) => batchPosition(batch, index) ?? originPosition(origin, index);
}
