/**
 * CRC-32C (Castagnoli) in plain JavaScript, slicing-by-8, and TFRecord's CRC mask.
 * Web-standard: used as is in browsers and as the small-input and fallback path in Node.
 */

const POLYNOMIAL = 0x82f63b78;

function buildTables(): Int32Array[] {
  const tables = Array.from({ length: 8 }, () => new Int32Array(256));
  const first = tables[0]!;
  for (let index = 0; index < 256; index++) {
    let crc = index;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
    first[index] = crc;
  }
  for (let index = 0; index < 256; index++) {
    for (let table = 1; table < 8; table++) {
      const previous = tables[table - 1]![index]!;
      tables[table]![index] = (previous >>> 8) ^ first[previous & 0xff]!;
    }
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = buildTables() as [
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
];

/**
 * CRC-32C of `data` (reflected polynomial 0x82F63B78, init and final xor 0xFFFFFFFF), as an unsigned
 * 32-bit number. `crc32c("123456789") === 0xE3069283`.
 *
 * @param data - the bytes.
 * @param previous - the CRC of the bytes before `data`, to continue a running CRC over several chunks.
 * @default previous 0 (a fresh CRC)
 */
export function crc32c(data: Uint8Array, previous = 0): number {
  let crc = ~previous;
  let index = 0;
  const length = data.length;
  const end8 = length - (length & 7);
  while (index < end8) {
    const low =
      crc ^ (data[index]! | (data[index + 1]! << 8) | (data[index + 2]! << 16) | (data[index + 3]! << 24));
    const high =
      data[index + 4]! | (data[index + 5]! << 8) | (data[index + 6]! << 16) | (data[index + 7]! << 24);
    crc =
      T7[low & 0xff]! ^
      T6[(low >>> 8) & 0xff]! ^
      T5[(low >>> 16) & 0xff]! ^
      T4[low >>> 24]! ^
      T3[high & 0xff]! ^
      T2[(high >>> 8) & 0xff]! ^
      T1[(high >>> 16) & 0xff]! ^
      T0[high >>> 24]!;
    index += 8;
  }
  while (index < length) {
    crc = T0[(crc ^ data[index]!) & 0xff]! ^ (crc >>> 8);
    index++;
  }
  return ~crc >>> 0;
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
