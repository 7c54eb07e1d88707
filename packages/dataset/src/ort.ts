/**
 * @module @tfpipe/dataset/ort
 * Parsed batches as onnxruntime feeds: `session.run(toOrtFeeds(batch))`. Needs `onnxruntime-common`
 * (installed with `onnxruntime-node` or `onnxruntime-web`); the main entry never imports it.
 */
export { toOrtFeeds } from './adapters/to-ort-feeds.js';
export type { ToOrtFeedsOptions } from './adapters/to-ort-feeds.js';
export type { AdapterBatch } from './adapters/components.js';
