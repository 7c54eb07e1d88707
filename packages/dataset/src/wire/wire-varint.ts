/**
 * Non-throwing varint reads for the dense fast path ({@link DenseRecordReader}): each returns the
 * position after the varint, or -1 for anything it does not take (truncated, too long), and leaves
 * the value in {@link varintResult}. The caller then hands the record to the general parser, which
 * raises the exact error.
 */
export const varintResult = {
  /** The last length read; for an int64, its low 32 bits (unsigned). */
  low: 0,
  /** The high 32 bits of the last int64 read (signed). */
  high: 0,
};

/** A length prefix of up to 4 bytes (lengths below 256 MiB) ending before `end`. */
export function readLength(bytes: Uint8Array, position: number, end: number): number {
  let byte = bytes[position] as number;
  if (byte < 0x80 && position < end) {
    varintResult.low = byte;
    return position + 1;
  }
  let value = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (position >= end) return -1;
    byte = bytes[position++] as number;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) {
      varintResult.low = value;
      return position;
    }
  }
  return -1;
}

/**
 * An int64 varint (two's complement; bits past the 64th dropped, as protobuf and `WireReader.int64`
 * do) into `low` / `high`.
 */
export function readInt64(bytes: Uint8Array, position: number, end: number): number {
  let low = 0;
  let byte = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (position >= end) return -1;
    byte = bytes[position++] as number;
    low |= (byte & 0x7f) << shift;
    if (byte < 0x80) {
      varintResult.low = low >>> 0;
      varintResult.high = 0;
      return position;
    }
  }
  if (position >= end) return -1;
  byte = bytes[position++] as number;
  low = (low | ((byte & 0x7f) << 28)) >>> 0;
  let high = (byte & 0x7f) >> 4;
  if (byte >= 0x80) {
    for (let shift = 3; ; shift += 7) {
      if (shift > 31 || position >= end) return -1;
      byte = bytes[position++] as number;
      high |= (byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
  }
  varintResult.low = low;
  varintResult.high = high | 0;
  return position;
}
