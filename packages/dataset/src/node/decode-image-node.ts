import { imageDecoder } from '../image/decode-image.js';
import { imagesStep } from '../image/decode-images.js';
import { sharpPixels } from './sharp-pixels.js';

/**
 * `tf.io.decode_image` (then `tf.image.resize`) for Node.js, with sharp: an encoded JPEG, PNG, WebP,
 * GIF (first frame), AVIF or TIFF to an HWC `Uint8Array` (or `Float32Array` in [0, 1]) and its shape;
 * given an array of images, one `[batch, height, width, channels]` tensor. Images decode in parallel
 * on sharp's threads.
 * @throws TfpipeError `IMAGE_DECODE` / `IMAGE_UNSUPPORTED` / `IMAGE_TOO_LARGE` for bytes that do not
 *   decode, `FEATURE_TYPE` for a batch of different sizes without `resize`, naming the image's record
 */
export const decodeImage = imageDecoder(sharpPixels);

/**
 * A `.map` step that replaces one `fixedLen([], 'string')` feature of each parsed batch by its decoded
 * images (`decodeImage` of the batch): `.parse(spec, { batchSize: 32 }).map(decodeImages('image/encoded',
 * { resize: { height: 224, width: 224 } }))`. Errors name the feature, the file, the record and its byte
 * offset.
 */
export const decodeImages = imagesStep(sharpPixels);
