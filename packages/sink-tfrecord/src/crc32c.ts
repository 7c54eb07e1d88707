/**
 * CRC-32C (Castagnoli) in plain JavaScript, slicing-by-16, and TFRecord's CRC mask.
 * Web-standard: used as is in browsers and as the small-input and fallback path in Node.
 */

/** CRC-32C's polynomial, reflected. */
export const POLYNOMIAL = 0x82f63b78;

/** A tuple of `N` `T`s. */
export type Tuple<T, N extends number, Items extends T[] = []> = Items['length'] extends N
  ? Items
  : Tuple<T, N, [...Items, T]>;

/**
 * The sixteen slicing tables: table `t` advances the CRC over a byte followed by `t` zero bytes.
 * Self-contained (the polynomial is an argument), so that the CRC thread can run its source.
 */
export function buildTables(polynomial: number): Int32Array[] {
  const tables = Array.from({ length: 16 }, () => new Int32Array(256));
  const first = tables[0]!;
  for (let index = 0; index < 256; index++) {
    let crc = index;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ polynomial : crc >>> 1;
    first[index] = crc;
  }
  for (let index = 0; index < 256; index++) {
    for (let table = 1; table < 16; table++) {
      const previous = tables[table - 1]![index]!;
      tables[table]![index] = (previous >>> 8) ^ first[previous & 0xff]!;
    }
  }
  return tables;
}

// Sixteen separate tables measured faster than one table of 4096.
const TABLES = buildTables(POLYNOMIAL) as Tuple<Int32Array, 16>;

/** The sixteen slicing tables of CRC-32C, for the CRC thread's WebAssembly memories. Internal. */
export const CRC_TABLES: readonly Int32Array[] = TABLES;

/**
 * CRC-32C of `data` (reflected polynomial 0x82F63B78, init and final xor 0xFFFFFFFF), as an unsigned
 * 32-bit number. `crc32c("123456789") === 0xE3069283`.
 *
 * @param data - the bytes.
 * @param previous - the CRC of the bytes before `data`, to continue a running CRC over several chunks.
 * @default previous 0 (a fresh CRC)
 */
export function crc32c(data: Uint8Array, previous = 0): number {
  const length = data.length;
  // Short inputs (a frame's 8 length bytes) byte by byte: no view to allocate for them.
  if (length < SHORT_INPUT) {
    const table = TABLES[0];
    let crc = ~previous;
    for (let index = 0; index < length; index++) crc = table[(crc ^ data[index]!) & 0xff]! ^ (crc >>> 8);
    return ~crc >>> 0;
  }
  return crc32cRange(new DataView(data.buffer, data.byteOffset, length), 0, length, previous);
}

/** Below this many bytes {@link crc32c} goes byte by byte rather than make a view. */
const SHORT_INPUT = 64;

/**
 * CRC-32C of the bytes from `start` to `end` of `view`: {@link crc32c} without a view or a copy per
 * call. Slicing-by-16 with 32-bit little-endian loads, which beats a native call's fixed cost up to
 * about 500 bytes.
 *
 * @param previous - the CRC of the bytes before them, to continue a running CRC.
 * @default previous 0
 */
export const crc32cRange: Crc32cRange = rangeFunction(TABLES);

/** {@link crc32cRange}'s type. */
export type Crc32cRange = (view: DataView, start: number, end: number, previous?: number) => number;

/**
 * Makes {@link crc32cRange} over the tables as constants of its closure: V8 then embeds them in the
 * optimized code, where tables read from module variables (the bundler turns module constants into
 * `var`s) or destructured per call measured much slower.
 */
export function rangeFunction(tables: Tuple<Int32Array, 16>): Crc32cRange {
  const [T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15] = tables;
  return (view: DataView, start: number, end: number, previous = 0): number => {
    let crc = ~previous;
    let index = start;
    const end16 = end - ((end - start) & 15);
    while (index < end16) {
      const a = crc ^ view.getInt32(index, true);
      const b = view.getInt32(index + 4, true);
      const c = view.getInt32(index + 8, true);
      const d = view.getInt32(index + 12, true);
      crc =
        T15[a & 0xff]! ^
        T14[(a >>> 8) & 0xff]! ^
        T13[(a >>> 16) & 0xff]! ^
        T12[a >>> 24]! ^
        T11[b & 0xff]! ^
        T10[(b >>> 8) & 0xff]! ^
        T9[(b >>> 16) & 0xff]! ^
        T8[b >>> 24]! ^
        T7[c & 0xff]! ^
        T6[(c >>> 8) & 0xff]! ^
        T5[(c >>> 16) & 0xff]! ^
        T4[c >>> 24]! ^
        T3[d & 0xff]! ^
        T2[(d >>> 8) & 0xff]! ^
        T1[(d >>> 16) & 0xff]! ^
        T0[d >>> 24]!;
      index += 16;
    }
    while (index < end) {
      crc = T0[(crc ^ view.getUint8(index)) & 0xff]! ^ (crc >>> 8);
      index++;
    }
    return ~crc >>> 0;
  };
}

/**
 * The CRC-32C of `A` followed by `B`, from the CRC of `A`, the CRC of `B` and `B`'s length alone:
 * no byte is read (zlib's `crc32_combine`, over CRC-32C's polynomial): for a large `B`, several
 * times cheaper than reading it through the native CRC.
 */
export function crc32cCombine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(xToTheBits(lengthB), crcA) ^ crcB) >>> 0;
}

/** `a × b` modulo CRC-32C's polynomial, bit-reflected (zlib's `multmodp`). `a` must not be 0. */
function multiplyModP(a: number, b: number): number {
  let bit = 0x80000000;
  let product = 0;
  for (;;) {
    if ((a & bit) !== 0) {
      product ^= b;
      if ((a & (bit - 1)) === 0) break;
    }
    bit >>>= 1;
    b = (b & 1) !== 0 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** `X_POWERS[k]` = x^(2^k) modulo the polynomial, reflected (zlib's `x2n_table`). */
const X_POWERS: readonly number[] = (() => {
  const powers: number[] = [];
  let power = 0x40000000; // x^1
  for (let k = 0; k < 32; k++) {
    powers.push(power);
    power = multiplyModP(power, power);
  }
  return powers;
})();

/** x^(8 × `bytes`) modulo the polynomial (zlib's `x2nmodp(bytes, 3)`). */
function xToTheBits(bytes: number): number {
  let power = 0x80000000; // x^0
  for (let k = 3; bytes > 0; k++, bytes = Math.floor(bytes / 2)) {
    if (bytes % 2 === 1) power = multiplyModP(X_POWERS[k & 31]!, power);
  }
  return power;
}

const MASK_DELTA = 0xa282ead8;

/** TFRecord's masked form of a CRC (tsl/lib/hash/crc32c.h): rotate right by 15 bits and add 0xA282EAD8. */
export function maskCrc(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + MASK_DELTA) >>> 0;
}

/** The inverse of {@link maskCrc}. */
export function unmaskCrc(masked: number): number {
  const rotated = (masked - MASK_DELTA) >>> 0;
  return ((rotated >>> 17) | (rotated << 15)) >>> 0;
}

/** A CRC-32C implementation: the JS one here, or the native one the Node entry picks for large inputs. */
export type Crc32cFunction = (data: Uint8Array) => number;

/** The masked CRC-32C of `data`, as stored in a TFRecord frame. */
export function maskedCrc32c(data: Uint8Array, crc: Crc32cFunction = crc32c): number {
  return maskCrc(crc(data));
}
