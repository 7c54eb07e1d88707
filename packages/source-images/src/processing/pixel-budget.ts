/**
 * The pixels a run may be decoding at once. `concurrency` bounds how many images are decoded
 * together, not how large they are: two 16000×16000 JPEGs converted to grey took 2.2 GB at once. Each
 * decode first takes its image's width × height from here and gives it back when sharp is done;
 * one that does not fit waits, in turn (first come, first served, so a large image is not starved by
 * small ones). An image larger than the whole budget takes all of it: alone, it always runs.
 * Internal.
 */
export class PixelBudget {
  readonly #capacity: number;
  #used = 0;
  readonly #waiting: { readonly share: number; readonly grant: () => void }[] = [];

  /** @param capacity - pixels, width × height summed over the images being decoded */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Pixels taken now. Internal (tests). */
  get used(): number {
    return this.#used;
  }

  /**
   * Waits until `pixels` fit beside the decodes in progress, takes them, and gives back the
   * function that returns them (once; more calls do nothing).
   */
  async take(pixels: number): Promise<() => void> {
    const share = Math.min(Math.max(pixels, 0), this.#capacity);
    if (this.#waiting.length === 0 && this.#fits(share)) this.#used += share;
    else await new Promise<void>((grant) => this.#waiting.push({ share, grant }));
    let returned = false;
    return () => {
      if (returned) return;
      returned = true;
      this.#used -= share;
      this.#grantWaiting();
    };
  }

  #fits(share: number): boolean {
    return this.#used === 0 || this.#used + share <= this.#capacity;
  }

  #grantWaiting(): void {
    for (let next = this.#waiting[0]; next !== undefined && this.#fits(next.share); next = this.#waiting[0]) {
      this.#waiting.shift();
      this.#used += next.share;
      next.grant();
    }
  }
}
