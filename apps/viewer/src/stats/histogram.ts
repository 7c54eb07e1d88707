/** A histogram as the page draws it: bin `i` counts the values in `[edges[i], edges[i + 1])`. */
export interface HistogramView {
  readonly edges: readonly number[];
  readonly counts: readonly number[];
}

/** The most bins a {@link Histogram} keeps. @default 32 */
export const HISTOGRAM_BINS = 32;

/**
 * A histogram of a stream of numbers whose range is not known in advance, in bounded memory: bins of
 * one power-of-two width aligned to multiples of it (`[k·w, (k+1)·w)`), the width doubled (two bins
 * merged into one) whenever the values seen span more than `maxBins` bins. Every count is exact for
 * the bins it reports.
 */
export class Histogram {
  #width: number;
  #bins = new Map<number, number>();
  #low = Infinity;
  #high = -Infinity;

  /**
   * @param integer - values are integers: bins are never narrower than 1. @default false
   * @param maxBins - the most bins kept. @default {@link HISTOGRAM_BINS}
   */
  constructor(
    private readonly integer = false,
    private readonly maxBins = HISTOGRAM_BINS,
  ) {
    this.#width = integer ? 1 : 0;
  }

  /** Counts one finite value (the caller counts the others). */
  add(value: number): void {
    if (this.#width === 0) {
      // The first value sets a width fine enough to tell values 2^-40 of it apart.
      const scale = value === 0 ? -20 : Math.floor(Math.log2(Math.abs(value))) - 40;
      this.#width = 2 ** Math.max(-1074, Math.min(scale, 1000));
    }
    while (!Number.isFinite(value / this.#width)) this.#double();
    let bin = Math.floor(value / this.#width);
    this.#low = Math.min(this.#low, bin);
    this.#high = Math.max(this.#high, bin);
    while (this.#high - this.#low >= this.maxBins) {
      this.#double();
      bin = Math.floor(bin / 2);
    }
    this.#bins.set(bin, (this.#bins.get(bin) ?? 0) + 1);
  }

  /** The bins from the lowest value's to the highest's (empty ones included). */
  view(): HistogramView {
    if (this.#bins.size === 0) return { edges: [], counts: [] };
    const edges: number[] = [];
    const counts: number[] = [];
    for (let bin = this.#low; bin <= this.#high; bin++) {
      edges.push(bin * this.#width);
      counts.push(this.#bins.get(bin) ?? 0);
    }
    edges.push((this.#high + 1) * this.#width);
    return { edges, counts };
  }

  #double(): void {
    this.#width *= 2;
    const merged = new Map<number, number>();
    for (const [bin, count] of this.#bins) {
      const into = Math.floor(bin / 2);
      merged.set(into, (merged.get(into) ?? 0) + count);
    }
    this.#bins = merged;
    this.#low = Math.floor(this.#low / 2);
    this.#high = Math.floor(this.#high / 2);
  }
}
