/** Keys of one length beyond this many are looked up by a hash of their bytes rather than one by one. */
const SCAN_LIMIT = 8;

/** FNV-1a over `bytes[start, end)`. */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ (bytes[index] as number), 0x01000193);
  return hash >>> 0;
}

/**
 * Which of a spec's keys some bytes spell, compared as bytes (as TensorFlow's parser does). Keys are
 * bucketed by length; where many share a length (a spec of thousands of `feature_0001`-style names),
 * by a hash of their bytes too, so a record whose keys come in a new order costs one lookup per key,
 * not a scan of every key of that length.
 */
export class KeyTable {
  readonly #keys: readonly Uint8Array[];
  readonly #byLength: (number[] | undefined)[] = [];
  readonly #byHash = new Map<number, number[]>();

  constructor(keys: readonly Uint8Array[]) {
    this.#keys = keys;
    keys.forEach((key, slot) => {
      (this.#byLength[key.length] ??= []).push(slot);
      const hash = hashOf(key, 0, key.length);
      const same = this.#byHash.get(hash);
      if (same === undefined) this.#byHash.set(hash, [slot]);
      else same.push(slot);
    });
  }

  /** The slot of the key spelled by `bytes[start, end)`, or -1. */
  slotOf(bytes: Uint8Array, start: number, end: number): number {
    let candidates = this.#byLength[end - start];
    if (candidates === undefined) return -1;
    if (candidates.length > SCAN_LIMIT) {
      candidates = this.#byHash.get(hashOf(bytes, start, end));
      if (candidates === undefined) return -1;
    }
    for (const slot of candidates) {
      const key = this.#keys[slot] as Uint8Array;
      if (key.length !== end - start) continue;
      let index = 0;
      while (index < key.length && key[index] === bytes[start + index]) index++;
      if (index === key.length) return slot;
    }
    return -1;
  }
}
