import { imageDecoder } from './decode-image.js';
import { imagesStep } from './decode-images.js';
import { webPixels } from './web-pixels.js';
import { webImageWorkers } from '../workers/web-image-workers.js';

/**
 * `tf.io.decode_image` (then `tf.image.resize`) in browsers and workers: the image is decoded by
 * `createImageBitmap` and drawn on an `OffscreenCanvas`, to an HWC `Uint8Array` (or `Float32Array` in
 * [0, 1]) and its shape; given an array of images, one `[batch, height, width, channels]` tensor. In
 * Node.js, `@tfpipe/dataset/node` exports a `decodeImage` that uses sharp. With `workers` > 1 the
 * images decode on that many module Web Workers.
 * @throws TfpipeError `IMAGE_DECODE` for bytes that do not decode, `FEATURE_TYPE` for a batch of
 *   different sizes without `resize`, `IMAGE_UNSUPPORTED` where there is no `createImageBitmap`
 */
export const decodeImage = imageDecoder(webPixels, webImageWorkers);

/**
 * A `.map` step that replaces one `fixedLen([], 'string')` feature of each parsed batch by its decoded
 * images; errors name the feature, the file, the record and its byte offset. With `workers` > 1 the
 * images decode on module Web Workers.
 */
export const decodeImages = imagesStep(webPixels, webImageWorkers);
