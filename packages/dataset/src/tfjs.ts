/**
 * @module @tfpipe/dataset/tfjs
 * Parsed datasets as TensorFlow.js datasets: `toTfjs(dataset)` is a `tf.data.generator` dataset of
 * `tf.Tensor` batches. Needs `@tensorflow/tfjs`; the main entry never imports it.
 */
export { toTfjs } from './adapters/to-tfjs.js';
export type { TfjsBatch, ToTfjsOptions } from './adapters/to-tfjs.js';
export type { AdapterBatch } from './adapters/components.js';
