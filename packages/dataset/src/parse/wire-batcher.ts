import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch } from '../tensor.js';
import type { BatchParser, SpanRecord } from './parse-example.js';
import { dataCrcError } from './span-crcs.js';
import type { SpanCrcCheck } from './span-crcs.js';

const MIN_ARENA_BYTES = 64 * 1024;
const EMPTY = new Uint8Array(0);

/**
 * One full batch of serialized Examples lying back to back in `bytes` (record `i` ends at `ends[i]`),
 * with each record's place. The arrays are the batcher's own until the next batch starts, unless
 * `detach` was set: then each batch gets a new `bytes` and `ends`, which a consumer may keep or hand to
 * a thread (the places are always reused: read them during `handle`).
 */
export interface WireSpans {
  readonly bytes: Uint8Array;
  readonly ends: Int32Array;
  readonly count: number;
  readonly places: readonly SpanRecord[];
  /**
   * Each record's stored masked data CRC, still to be checked by the handler: given when the batcher
   * carries CRCs (the reader left them unchecked).
   */
  readonly crcs?: Uint32Array;
}

/**
 * What a {@link WireBatcher} does with each full batch: parse it here, or (`detach`) pass it on,
 * e.g. to a parse worker. `handle` returns what `take` then hands out.
 */
export interface SpanHandler<Out> {
  readonly detach: boolean;
  handle(spans: WireSpans): Out;
  /**
   * Whether what the last `handle` returned keeps views of `spans.bytes`: the batcher then leaves
   * that buffer to it and copies the next batch into a new one.
   */
  readonly kept?: () => boolean;
  /**
   * Checks the carried data CRCs of a batch that will not be handled (the reader failed after it):
   * throws the error of its first record whose CRC does not hold, which comes before the reader's.
   */
  readonly checkCrcs?: (spans: WireSpans) => void;
}

/**
 * The handler that parses each batch on this thread with `parser`; with `crcCheck`, a batch that
 * carries its records' data CRCs has them checked first (the reader's `RECORD_CRC` error for the
 * first that fails).
 */
export function parseHere<Spec extends ExampleParseSpec>(
  parser: BatchParser<Spec>,
  crcCheck?: SpanCrcCheck,
): SpanHandler<ParsedBatch<Spec>> {
  const checkCrcs = (spans: WireSpans): void => {
    if (spans.crcs === undefined || spans.count === 0) return;
    if (crcCheck === undefined) throw new Error('a batch carries data CRCs but its handler has no check');
    const bad = crcCheck(spans.bytes, spans.ends, spans.count, spans.crcs);
    if (bad >= 0) throw dataCrcError(spans.places[bad]!);
  };
  return {
    detach: false,
    // Errors name each record's file, index and offset: the places are SerializedRecord objects.
    // The arena is lent: a batch whose long byte strings are views of it keeps it (see `kept`).
    handle(spans) {
      checkCrcs(spans);
      return parser.parseSpans(spans.bytes, spans.ends, spans.count, spans.places, true);
    },
    kept: () => parser.lentBytes,
    checkCrcs,
  };
}

/**
 * Gathers serialized Examples into batches of `batchSize` and hands each full batch to its handler,
 * for readers that see a payload only as a view into their read buffer, valid during one call: each
 * payload is copied into one arena per batch, reused for the next (parsing copies what it keeps), so
 * a record costs a `memcpy` rather than an array of its own, a record object and a stream read.
 * A batch that keeps views of its arena (long byte strings) takes the arena along: it is never
 * written again, and the next batch is copied into a new one.
 */
export class WireBatcher<Out> {
  readonly #handler: SpanHandler<Out>;
  readonly #batchSize: number;
  #arena: Uint8Array;
  #used = 0;
  #ends: Int32Array;
  readonly #places: SpanRecord[] = [];
  #count = 0;
  #ready: Out[] = [];
  /** The stored data CRCs of the open batch, when this batcher carries them. */
  #crcs: Uint32Array | undefined;

  /**
   * @param carryCrcs true when the payloads come with their data CRCs unchecked (`add`'s `dataCrc`),
   *   for the handler to check
   */
  constructor(handler: SpanHandler<Out>, batchSize: number, carryCrcs = false) {
    this.#handler = handler;
    this.#batchSize = batchSize;
    this.#arena = new Uint8Array(MIN_ARENA_BYTES);
    this.#ends = new Int32Array(Math.min(batchSize, 1024));
    if (carryCrcs) this.#crcs = new Uint32Array(this.#ends.length);
  }

  /** True when the payloads must come with their stored data CRCs, unchecked. */
  get carriesCrcs(): boolean {
    return this.#crcs !== undefined;
  }

  /**
   * Copies one payload (and where it sits) into the open batch; a full batch is handled at once.
   * `dataCrc`: the record's stored masked data CRC, when the batcher carries CRCs.
   */
  add(data: Uint8Array, file: string, recordIndex: number, byteOffset: number, dataCrc = 0): void {
    this.addRange(data, 0, data.length, file, recordIndex, byteOffset, dataCrc);
  }

  /**
   * {@link add} for the payload `buffer[start, end)`: a reader's buffer and offsets, so that a record
   * costs no view or place object of its own before it is copied.
   */
  addRange(
    buffer: Uint8Array,
    start: number,
    end: number,
    file: string,
    recordIndex: number,
    byteOffset: number,
    dataCrc = 0,
  ): void {
    const length = end - start;
    if (this.#used + length > this.#arena.length) this.#growArena(length);
    // A view made by the constructor: `subarray` looks up the species constructor each time.
    const data =
      start === 0 && end === buffer.length
        ? buffer
        : new Uint8Array(buffer.buffer, buffer.byteOffset + start, length);
    this.#arena.set(data, this.#used);
    this.#used += length;
    const at = this.#count++;
    if (at === this.#ends.length) this.#growEnds();
    this.#ends[at] = this.#used;
    if (this.#crcs !== undefined) this.#crcs[at] = dataCrc;
    const place = this.#places[at];
    // `data` is set by the parser, only for a record the general parser reads.
    if (place === undefined) this.#places[at] = { data: EMPTY, file, recordIndex, byteOffset };
    else {
      place.file = file;
      place.recordIndex = recordIndex;
      place.byteOffset = byteOffset;
    }
    if (this.#count === this.#batchSize) this.#handle();
  }

  /** What the batches completed since the last call gave. */
  take(): Out[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  /**
   * Checks the carried data CRCs of the open, partial batch (see `SpanHandler.checkCrcs`): for a
   * reader that failed, so that an earlier record's bad data CRC is the error raised.
   */
  checkOpen(): void {
    if (this.#crcs === undefined || this.#count === 0) return;
    this.#handler.checkCrcs?.({
      bytes: this.#arena.subarray(0, this.#used),
      ends: this.#ends,
      count: this.#count,
      places: this.#places,
      crcs: this.#crcs,
    });
  }

  /** The last, partial batch (none when `dropRemainder` or when nothing is left). */
  flush(dropRemainder: boolean): Out[] {
    if (this.#count > 0 && !dropRemainder) this.#handle();
    this.#count = 0;
    this.#used = 0;
    return this.take();
  }

  #handle(): void {
    const spans: WireSpans = {
      bytes: this.#arena.subarray(0, this.#used),
      ends: this.#ends,
      count: this.#count,
      places: this.#places,
      ...(this.#crcs === undefined ? {} : { crcs: this.#crcs }),
    };
    if (this.#handler.detach) {
      // The next batch gets arrays of its own: these now belong to whoever handles this one.
      // Sized for a batch like this one (an eighth more): a batch a little larger than the last
      // would otherwise grow it by doubling, copying what it holds.
      this.#arena = new Uint8Array(Math.max(MIN_ARENA_BYTES, this.#used + (this.#used >>> 3)));
      this.#ends = new Int32Array(this.#ends.length);
      if (this.#crcs !== undefined) this.#crcs = new Uint32Array(this.#ends.length);
    }
    const used = this.#used;
    this.#count = 0;
    this.#used = 0;
    this.#ready.push(this.#handler.handle(spans));
    // Sized for a batch like this one (an eighth more), so the next rarely grows by copying.
    if (this.#handler.kept?.() === true)
      this.#arena = new Uint8Array(Math.max(MIN_ARENA_BYTES, used + (used >>> 3)));
  }

  #growArena(needed: number): void {
    const grown = new Uint8Array(Math.max(this.#arena.length * 2, this.#used + needed));
    grown.set(this.#arena.subarray(0, this.#used));
    this.#arena = grown;
  }

  #growEnds(): void {
    const grown = new Int32Array(this.#ends.length * 2);
    grown.set(this.#ends);
    this.#ends = grown;
    if (this.#crcs !== undefined) {
      const crcs = new Uint32Array(grown.length);
      crcs.set(this.#crcs);
      this.#crcs = crcs;
    }
  }
}
