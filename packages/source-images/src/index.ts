/**
 * @module @tfpipe/source-images
 * Image folders, list files, COCO and Pascal VOC annotations to tf.train.Example records with the
 * `image/*` keys the TF Object Detection API, TF-slim and Keras read. Images are checked, kept
 * byte-for-byte or decoded, oriented, resized and re-encoded with sharp (loaded on first use), with
 * a bounded number in flight and the input order kept.
 */
export { imageListing, imageSource } from './image-source.js';
export type { ImageSourceDetails } from './image-source.js';
export type { ImageSourceOptions, OutputFormat } from './image-source-options.js';
export type { ImageRecord } from './image-record.js';
export { imageExamples, imageExampleSpec } from './image-examples.js';
export type { ImageFeatureSpec } from './image-examples.js';
export { DEFAULT_IMAGE_KEYS, IMAGE_KEY_KINDS } from './image-keys.js';
export type { ImageKeyRole, ImageKeys } from './image-keys.js';
export { writeLabelMap, formatLabelMap } from './label-map.js';
export type { LabelMapFormat } from './label-map.js';
export type { LabelEntry, LabelMap } from './inputs/image-task.js';
export type { ResizeFit, NormalizedBox } from './processing/box-transform.js';
export type { InvalidBoxPolicy } from './processing/place-objects.js';
export { plugin, imageSourceOptionsSchema } from './plugin.js';
export type { ImageSourcePluginOptions } from './plugin.js';
