/**
 * @module @tfpipe/source-images/header
 * The image sniffing and header reading of the package on their own, web-standard (no sharp, no
 * `node:*`): what a browser page needs to tell an image's format and size without decoding it.
 */
export { sniffImageFormat } from './processing/sniff-image-format.js';
export type { ImageFormat, SniffedFormat } from './processing/sniff-image-format.js';
export { readImageHeader } from './processing/read-image-header.js';
export type { ImageHeader } from './processing/read-image-header.js';
