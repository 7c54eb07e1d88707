/**
 * @module @tfpipe/dataset/node
 * Everything of `@tfpipe/dataset`, with a `tfrecordDataset` that also reads file paths and globs (and
 * `.idx` index files for record sharding), verifying CRCs natively, and a `decodeImage` that decodes
 * with sharp. Node only.
 */
export * from './index.js';
export { tfrecordDataset } from './node/tfrecord-dataset-node.js';
export type { TfrecordInput } from './node/tfrecord-dataset-node.js';
export { readRecordIndex } from './node/node-file.js';
export { decodeImage, decodeImages } from './node/decode-image-node.js';
