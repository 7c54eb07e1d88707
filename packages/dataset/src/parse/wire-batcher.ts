import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch } from '../tensor.js';
import type { BatchParser, SpanRecord } from './parse-example.js';

const MIN_ARENA_BYTES = 64 * 1024;

/**
 * Gathers serialized Examples into batches of `batchSize` and parses each full batch, for readers that
 * see a payload only as a view into their read buffer, valid during one call: each payload is copied
 * into one arena per batch, reused for the next (parsing copies what it keeps), so a record costs a
 * `memcpy` rather than an array of its own, a record object and a stream read.
 */
export class WireBatcher<Spec extends ExampleParseSpec> {
  readonly #parser: BatchParser<Spec>;
  readonly #batchSize: number;
  #arena = new Uint8Array(MIN_ARENA_BYTES);
  #used = 0;
  readonly #ends: number[] = [];
  readonly #places: SpanRecord[] = [];
  #count = 0;
  #ready: ParsedBatch<Spec>[] = [];

  constructor(parser: BatchParser<Spec>, batchSize: number) {
    this.#parser = parser;
    this.#batchSize = batchSize;
  }

  /** Copies one payload (and where it sits) into the open batch; a full batch is parsed at once. */
  add(data: Uint8Array, file: string, recordIndex: number, byteOffset: number): void {
    if (this.#used + data.length > this.#arena.length) this.#grow(data.length);
    this.#arena.set(data, this.#used);
    this.#used += data.length;
    const at = this.#count++;
    this.#ends[at] = this.#used;
    const place = this.#places[at];
    if (place === undefined) this.#places[at] = { data, file, recordIndex, byteOffset };
    else {
      place.file = file;
      place.recordIndex = recordIndex;
      place.byteOffset = byteOffset;
    }
    if (this.#count === this.#batchSize) this.#parse();
  }

  /** The batches completed since the last call. */
  take(): ParsedBatch<Spec>[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  /** The last, partial batch (none when `dropRemainder` or when nothing is left). */
  flush(dropRemainder: boolean): ParsedBatch<Spec>[] {
    if (this.#count > 0 && !dropRemainder) this.#parse();
    this.#count = 0;
    this.#used = 0;
    return this.take();
  }

  #parse(): void {
    // Errors name each record's file, index and offset: the places are SerializedRecord objects.
    this.#ready.push(this.#parser.parseSpans(this.#arena, this.#ends, this.#count, this.#places));
    this.#count = 0;
    this.#used = 0;
  }

  #grow(needed: number): void {
    const grown = new Uint8Array(Math.max(this.#arena.length * 2, this.#used + needed));
    grown.set(this.#arena.subarray(0, this.#used));
    this.#arena = grown;
  }
}
