/**
 * Compressed input read from a stream with look-ahead and put-back: the member-by-member decompressor
 * parses gzip and zlib headers and trailers itself and returns what zlib did not consume. `offset`
 * is the stream offset of the next unconsumed byte: a file offset for error positions.
 */
export class InputCursor {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Unconsumed bytes, front first. */
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #ended = false;
  /** Stream offset of the next unconsumed byte. */
  offset = 0;
  /** Sees every byte {@link consume} drops (the gzip header CRC). */
  observer: ((bytes: Uint8Array) => void) | undefined;

  constructor(reader: ReadableStreamDefaultReader<Uint8Array>) {
    this.#reader = reader;
  }

  /** Reads until `count` bytes are buffered or the input ends; true when they are. */
  async fill(count: number): Promise<boolean> {
    while (this.#buffered < count && !this.#ended) {
      const { done, value } = await this.#reader.read();
      if (done) this.#ended = true;
      else if (value.length > 0) {
        this.#chunks.push(value);
        this.#buffered += value.length;
      }
    }
    return this.#buffered >= count;
  }

  /** Bytes buffered. */
  get buffered(): number {
    return this.#buffered;
  }

  /** The first `count` buffered bytes (call {@link fill} first), not consumed. */
  peek(count: number): Uint8Array {
    const first = this.#chunks[0];
    if (first !== undefined && first.length >= count) return first.subarray(0, count);
    const out = new Uint8Array(Math.min(count, this.#buffered));
    let filled = 0;
    for (const chunk of this.#chunks) {
      if (filled === out.length) break;
      const part = chunk.subarray(0, out.length - filled);
      out.set(part, filled);
      filled += part.length;
    }
    return out;
  }

  /** Drops the first `count` buffered bytes. */
  consume(count: number): void {
    this.offset += count;
    this.#buffered -= count;
    while (count > 0) {
      const first = this.#chunks[0]!;
      if (first.length > count) {
        this.observer?.(first.subarray(0, count));
        this.#chunks[0] = first.subarray(count);
        return;
      }
      this.observer?.(first);
      count -= first.length;
      this.#chunks.shift();
    }
  }

  /** Consumes bytes up to and including the next `value`; false if the input ends first. */
  async skipThrough(value: number): Promise<boolean> {
    for (;;) {
      if (!(await this.fill(1))) return false;
      const first = this.#chunks[0]!;
      const index = first.indexOf(value);
      if (index >= 0) {
        this.consume(index + 1);
        return true;
      }
      this.consume(first.length);
    }
  }

  /** The next buffered or read chunk, consumed whole; `undefined` at the end. */
  async take(): Promise<Uint8Array | undefined> {
    if (!(await this.fill(1))) return undefined;
    const chunk = this.#chunks.shift()!;
    this.#buffered -= chunk.length;
    this.offset += chunk.length;
    return chunk;
  }

  /** Puts back the tail of the last chunk taken, which zlib did not consume. */
  unshift(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#chunks.unshift(bytes);
    this.#buffered += bytes.length;
    this.offset -= bytes.length;
  }

  /** Consumes the rest of the input, counting it without keeping it: the stream offset of its end. */
  async drain(): Promise<number> {
    this.consume(this.#buffered);
    while (!this.#ended) {
      const { done, value } = await this.#reader.read();
      if (done) this.#ended = true;
      else this.offset += value.length;
    }
    return this.offset;
  }

  /** Stops reading the input. */
  async cancel(reason?: unknown): Promise<void> {
    this.#ended = true;
    this.#chunks = [];
    this.#buffered = 0;
    await this.#reader.cancel(reason);
  }
}
