/**
 * @module @tfpipe/sink-tfrecord/internal
 * What other tfpipe packages (the CLI, the benchmarks, tests) use of this package's machinery:
 * path expansion, safe file opening, the temporary names of unfinished output, and the CRC-32C and
 * single-record framing primitives.
 *
 * **No semver promise**: anything here may change or go in any release, minor and patch included.
 */
export { expandTfrecordPaths } from './expand-tfrecord-paths.js';
export { temporaryPath, releaseTemporary, removeStaleTemporaries, shardName } from './shard-names.js';
export type { StaleTemporaries } from './shard-names.js';
export { compressionOfName } from './sink-options-schema.js';
export { crc32c, crc32cCombine, crc32cRange, unmaskCrc } from './crc32c.js';
export { frameRecord } from './frame-record.js';

// Node reading helpers for @tfpipe/dataset/node: whole-file reads, the native CRC, gunzip/inflate streams
export { fastCrc32c, fastCrc32cRange } from './native-crc32c.js';
export { fileBytes } from './file-bytes.js';
export { nodeDecompressor } from './node-decompressor.js';
