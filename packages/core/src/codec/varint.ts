/** Bytes a non-negative integer below 2^53 takes as a varint. */
export function varintSize(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  if (value < 0x800000000) return 5;
  if (value < 0x40000000000) return 6;
  if (value < 0x2000000000000) return 7;
  return 8;
}

/** Writes a non-negative integer below 2^53 as a varint at `position`; returns the position after it. */
export function writeVarint(target: Uint8Array, position: number, value: number): number {
  while (value > 0x7fffffff) {
    target[position++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  while (value > 0x7f) {
    target[position++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  target[position++] = value;
  return position;
}

const INT32_MIN = -0x80000000n;
const INT32_MAX = 0x7fffffffn;

/** Bytes an int64 takes as a varint of its two's complement (negative values always take 10). */
export function int64VarintSize(value: bigint): number {
  if (value >= INT32_MIN && value <= INT32_MAX) {
    const small = Number(value);
    return small < 0 ? 10 : varintSize(small);
  }
  if (value < 0n) return 10;
  if (value < 0x20000000000000n) return varintSize(Number(value));
  if (value < 0x100000000000000n) return 8;
  if (value < 0x8000000000000000n) return 9;
  return 10;
}

/** Writes an int64 as the varint of its two's complement; returns the position after it. */
export function writeInt64Varint(target: Uint8Array, position: number, value: bigint): number {
  if (value >= 0n && value <= INT32_MAX) return writeVarint(target, position, Number(value));
  let low: number;
  let high: number;
  if (value >= INT32_MIN && value < 0n) {
    low = Number(value) >>> 0;
    high = 0xffffffff;
  } else {
    const unsigned = BigInt.asUintN(64, value);
    low = Number(unsigned & 0xffffffffn);
    high = Number(unsigned >> 32n);
  }
  return writeVarint64(target, position, low, high);
}

/**
 * Writes the 64-bit value `high * 2^32 + low` (two unsigned 32-bit halves) as a varint, the way
 * protobuf does; returns the position after it.
 */
export function writeVarint64(target: Uint8Array, position: number, low: number, high: number): number {
  while (high > 0) {
    target[position++] = (low & 0x7f) | 0x80;
    low = ((low >>> 7) | (high << 25)) >>> 0;
    high >>>= 7;
  }
  while (low > 0x7f) {
    target[position++] = (low & 0x7f) | 0x80;
    low >>>= 7;
  }
  target[position++] = low;
  return position;
}
