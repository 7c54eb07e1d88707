/**
 * @module @tfpipe/core/internal
 * The performance protocols tfpipe's own packages share: buffer lending, known CRC-32C spans, the
 * frame room of directly encoded Examples, the cell encoder and exact fast number parsing.
 *
 * **No semver promise**: anything here may change or go in any release, minor and patch included.
 * Pin `@tfpipe/core` exactly if you import it; pipeline users and plugin authors never need to.
 */

// Buffer lending: a source lends a record's memory and takes it back once the sink wrote it
export {
  RELEASE_HOOK,
  STAGE_PASSES_RELEASE,
  SINK_RELEASES,
  withRelease,
  releaseRecord,
  passRelease,
  markLending,
  lendingSwitch,
  releasesThrough,
} from './contract/lending.js';

// Known CRCs: a source that already computed a value's CRC-32C hands it to the sink
export { withCrc32c, knownCrc32c, KNOWN_CRC_MIN_BYTES } from './codec/known-crc32c.js';

// The frame room: Examples written straight to wire bytes with room for their TFRecord frame
export { EncodedExample, ENCODED, FRAME_TRAILER_BYTES } from './codec/encoded-example.js';
export { encodedLength, encodeInto } from './codec/encode-example.js';
export { copyBytes } from './codec/copy-bytes.js';

// The protobuf wire cursor core's decoder and the dataset's parser share
export { WireCursor } from './codec/wire-cursor.js';
export { compileCellEncoder } from './stages/build-examples.js';
export { ByteRange, NumberCell } from './stages/row-encoder/byte-range.js';
export type { CellEncoder, ExampleSpecEntries } from './stages/build-examples.js';

// Exact fast number parsing, for sources with their own cell rules (CSV's Python spellings)
export { plainDecimal, smallInteger } from './text/plain-decimal.js';
export { decimalFloat, decimalInteger } from './text/decimal-text.js';

// Row features, for the declarative pipeline's expressions (@tfpipe/pipeline)
export { isFeatureValue } from './stages/spec/row-feature.js';

// Worker threads: one request/answer pattern for the image readers and the CRC thread (core starts none itself)
export { RequestThread } from './threads/request-thread.js';
export type { RequestThreadOptions, ThreadWorker } from './threads/request-thread.js';
