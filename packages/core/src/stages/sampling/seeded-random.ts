import { TfpipeError } from '../../errors/tfpipe-error.js';

/** A seeded source of uniform random numbers. */
export interface SeededRandom {
  /** A float in [0, 1) with 53 random bits. */
  next(): number;
  /** An integer in [0, bound), unbiased (rejection sampling). `bound` is at most 2^32. */
  below(bound: number): number;
}

/**
 * A seeded pseudo-random generator: xoshiro128** (Blackman and Vigna, 2018), its 128-bit state
 * filled by SplitMix32 from the seed. The same seed gives the same sequence on every machine and
 * runtime (only 32-bit integer arithmetic), so seeded shuffles and samples are reproducible.
 *
 * @param seed - any safe integer; its low 32 bits and high 21 bits both feed the state.
 */
export function seededRandom(seed: number): SeededRandom {
  if (!Number.isSafeInteger(seed)) {
    throw new TfpipeError('INVALID_OPTION', `seed must be a safe integer, got ${String(seed)}`, {
      fatal: true,
    });
  }
  let mix = (seed >>> 0) ^ Math.imul(Math.floor(seed / 2 ** 32) | 0, 0x9e3779b9);
  const splitMix = (): number => {
    mix = (mix + 0x9e3779b9) | 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitMix();
  let b = splitMix();
  let c = splitMix();
  let d = splitMix();
  if ((a | b | c | d) === 0) a = 1;
  const next32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  return {
    next: () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992,
    below(bound) {
      if (!Number.isSafeInteger(bound) || bound < 1 || bound > 2 ** 32) {
        throw new TfpipeError('INTERNAL', `below(bound): bound must be in 1..2^32, got ${bound}`);
      }
      // Reject the top sliver of the 32-bit range that does not divide evenly by `bound`.
      const limit = 2 ** 32 - (2 ** 32 % bound);
      let value = next32();
      while (value >= limit) value = next32();
      return value % bound;
    },
  };
}

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}
