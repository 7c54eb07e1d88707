/** A value and how often it was seen: `count` is at most `error` more than the true count. */
export interface TopValue {
  readonly value: string;
  readonly count: number;
  /** How much `count` may overstate (0: exact). */
  readonly error: number;
}

/** Values a {@link TopValues} tracks at once. @default 64 */
export const TOP_VALUES_TRACKED = 64;

/**
 * The most frequent values of a stream in bounded memory: the Space-Saving algorithm (Metwally,
 * Agrawal and El Abbadi, 2005). Exact while at most `capacity` distinct values are seen; past that a
 * new value replaces the least counted one and inherits its count as its possible error, so every
 * value seen more than `n / capacity` times is kept.
 */
export class TopValues {
  readonly #counts = new Map<string, { count: number; error: number }>();

  /** @param capacity - values tracked at once. @default {@link TOP_VALUES_TRACKED} */
  constructor(private readonly capacity = TOP_VALUES_TRACKED) {}

  /** Counts one value. */
  add(value: string): void {
    const entry = this.#counts.get(value);
    if (entry !== undefined) {
      entry.count++;
      return;
    }
    if (this.#counts.size < this.capacity) {
      this.#counts.set(value, { count: 1, error: 0 });
      return;
    }
    let least: string | undefined;
    let leastCount = Infinity;
    for (const [key, { count }] of this.#counts) {
      if (count < leastCount) {
        least = key;
        leastCount = count;
      }
    }
    this.#counts.delete(least!);
    this.#counts.set(value, { count: leastCount + 1, error: leastCount });
  }

  /** The `limit` most counted values, most first (ties by value). */
  top(limit = 10): TopValue[] {
    return [...this.#counts]
      .map(([value, { count, error }]) => ({ value, count, error }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, limit);
  }
}
