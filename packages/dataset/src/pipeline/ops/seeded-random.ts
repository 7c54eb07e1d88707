/**
 * A seeded generator of uniform integers (mulberry32 over a splitmix-style seed mix): the same seed
 * gives the same sequence on every platform, which `Math.random` cannot.
 */
export class SeededRandom {
  #state: number;

  /** @param seed - any safe integer; `stream` picks an independent sequence for the same seed (an epoch). */
  constructor(seed: number, stream = 0) {
    // Mix both halves of a 53-bit seed and the stream so nearby seeds start far apart.
    const low = seed >>> 0;
    const high = Math.floor(seed / 0x1_0000_0000) >>> 0;
    this.#state = mix(mix(low ^ mix(high)) ^ mix(stream + 0x9e37_79b9));
  }

  /** The next 32 random bits, as an unsigned integer. */
  nextUint32(): number {
    this.#state = (this.#state + 0x6d2b_79f5) | 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return (value ^ (value >>> 14)) >>> 0;
  }

  /** A uniform integer in `[0, bound)`, for `bound` up to 2^32 (bias below `bound / 2^32`). */
  below(bound: number): number {
    return Math.floor((this.nextUint32() / 0x1_0000_0000) * bound);
  }
}

function mix(value: number): number {
  let mixed = value | 0;
  mixed = Math.imul(mixed ^ (mixed >>> 16), 0x85eb_ca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2_ae35);
  return (mixed ^ (mixed >>> 16)) >>> 0;
}

/**
 * The stream of a shuffle's pass: the shuffle's own count of the iterations it has seen, then the
 * epoch of each enclosing `repeat`. The first iteration's epochs `0, 1, 2…` under one `repeat` are
 * streams `0, 1, 2…`; a pass's stream never depends on which other passes were started.
 */
export function passStream(iteration: number, position: { readonly epochs: readonly number[] }): number {
  let stream = iteration >>> 0;
  for (const epoch of position.epochs) stream = (Math.imul(stream, 0x9e37_79b1) + epoch) >>> 0;
  return stream;
}

/** A random seed, for a shuffle given none. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}
