/**
 * @module @tfpipe/node-utils
 * The Node.js helpers every tfpipe plugin and the CLI share, written once: path expansion with one
 * glob grammar, the mapping of file-system errors to `TfpipeError`, the regular-file opener and the
 * native CRC-32C loader. `@tfpipe/core` stays web-standard; what needs `node:*` lives here.
 */

export { expandPaths } from './expand-paths.js';
export type { ExpandPathsOptions } from './expand-paths.js';
export { errnoOf, readError, writeError } from './io-error.js';
export { notAFile, openRegularFile } from './open-regular-file.js';
export type { OpenedFile } from './open-regular-file.js';
export { loadNativeCrc32c, nativeCrc32cPath } from './load-native-crc32c.js';
export type { NativeCrc32c } from './load-native-crc32c.js';
