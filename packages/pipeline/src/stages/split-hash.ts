/**
 * FNV-1a, 64-bit (Fowler, Noll, Vo; http://www.isthe.com/chongo/tech/comp/fnv/): offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3, for each byte `hash = (hash ^ byte) * prime mod 2^64`.
 * Computed in four 16-bit limbs, so it needs no BigInt and gives the same answer everywhere.
 */
function fnv1a64Limbs(bytes: Uint8Array): [number, number, number, number] {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (const byte of bytes) {
    h0 ^= byte;
    // prime = 2^40 + 0x1b3: limbs (low first) 0x01b3, 0, 0x0100, 0
    const r0 = h0 * 0x1b3;
    const r1 = h1 * 0x1b3 + (r0 >>> 16);
    const r2 = h2 * 0x1b3 + h0 * 0x100 + (r1 >>> 16);
    const r3 = h3 * 0x1b3 + h1 * 0x100 + (r2 >>> 16);
    h0 = r0 & 0xffff;
    h1 = r1 & 0xffff;
    h2 = r2 & 0xffff;
    h3 = r3 & 0xffff;
  }
  return [h0, h1, h2, h3];
}

/** FNV-1a 64-bit hash of `bytes`, as an unsigned BigInt. `fnv1a64(utf8('a')) === 0xaf63dc4c8601ec8cn`. */
export function fnv1a64(bytes: Uint8Array): bigint {
  const [h0, h1, h2, h3] = fnv1a64Limbs(bytes);
  return (BigInt(h3) << 48n) | (BigInt(h2) << 32n) | (BigInt(h1) << 16n) | BigInt(h0);
}

const MASK = 0xffffffffffffffffn;

/**
 * MurmurHash3's 64-bit finalizer (`fmix64`): `h ^= h >> 33; h *= 0xff51afd7ed558ccd; h ^= h >> 33;
 * h *= 0xc4ceb9fe1a85ec53; h ^= h >> 33`, all mod 2^64. FNV-1a's top bits are poorly mixed for
 * short, similar keys (`"1"`, `"2"` …), so split assignment mixes the hash with this first.
 */
export function fmix64(hash: bigint): bigint {
  let h = hash & MASK;
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & MASK;
  h ^= h >> 33n;
  h = (h * 0xc4ceb9fe1a85ec53n) & MASK;
  h ^= h >> 33n;
  return h;
}

/**
 * The split hash of a key as a fraction in [0, 1): `fmix64(fnv1a64(bytes)) >> 11` (the top 53 bits)
 * divided by 2^53. Split assignment compares it with the cumulative ratios.
 */
export function hashFraction(bytes: Uint8Array): number {
  return Number(fmix64(fnv1a64(bytes)) >> 11n) / 2 ** 53;
}
