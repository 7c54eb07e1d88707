/**
 * Known CRC-32Cs of byte values: a source that has already read a large value (an image file) may
 * say what its CRC-32C is, so that a sink framing the record need not read those bytes again for
 * its checksum. Web-standard.
 *
 * Only safe while nothing changes the bytes between the source and the sink: a source records a
 * value's CRC only for a run that lends it (see *Buffer lending*: every stage passes records on
 * untouched). A sink that uses them combines the known CRC with its own over the rest of the record.
 */

/** Values shorter than this are never looked up: reading them costs less than the lookup saves. */
export const KNOWN_CRC_MIN_BYTES = 16 * 1024;

const known = new WeakMap<Uint8Array, number>();

/**
 * Records that the CRC-32C (Castagnoli; init and final xor 0xFFFFFFFF, the CRC that TFRecord
 * frames mask) of `bytes` is `crc`, and returns `bytes`. Values shorter than
 * {@link KNOWN_CRC_MIN_BYTES} are not recorded. The bytes must not change afterwards.
 */
export function withCrc32c<T extends Uint8Array>(bytes: T, crc: number): T {
  if (bytes.length >= KNOWN_CRC_MIN_BYTES) known.set(bytes, crc >>> 0);
  return bytes;
}

/** The CRC-32C recorded for `bytes` with {@link withCrc32c}, if any. */
export function knownCrc32c(bytes: Uint8Array): number | undefined {
  return known.get(bytes);
}

/**
 * The encoder's side of known CRCs: appends `offset, length, crc` to `crcSpans` when `value`, just
 * written at `offset`, is large enough and has a recorded CRC. Internal.
 */
export function noteKnownCrc(crcSpans: number[], value: Uint8Array, offset: number): void {
  if (value.length < KNOWN_CRC_MIN_BYTES) return;
  const crc = known.get(value);
  if (crc !== undefined) crcSpans.push(offset, value.length, crc);
}
