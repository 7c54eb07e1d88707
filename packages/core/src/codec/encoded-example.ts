import { POSITION } from '../contract/plugin-contract.js';
import type { Position } from '../errors/tfpipe-error.js';
import type { Example, Features } from '../model/example.js';
import { decodeExample } from './decode-example.js';
import { copyBytes } from './copy-bytes.js';

/**
 * The key under which an Example carries its own wire bytes (`Symbol.for`, so that two copies of
 * `@tfpipe/core` agree). The codec writes such an Example by copying those bytes.
 */
export const ENCODED: unique symbol = Symbol.for('tfpipe.encoded') as never;

/** Bytes a TFRecord frame puts before a record: its uint64 length and that length's masked CRC. */
export const FRAME_HEADER_BYTES = 12;
/** Bytes a TFRecord frame puts after a record: the record's masked CRC. */
export const FRAME_TRAILER_BYTES = 4;

/** An Example that may carry its wire bytes under {@link ENCODED}. */
type MaybeEncoded = { readonly [ENCODED]?: Uint8Array };

/**
 * A `tf.train.Example` that `buildExamples` encoded directly from a row: it holds the exact bytes
 * `encodeExample` would write for the Example the row describes, so serialising it is a copy.
 * `features` is decoded from those bytes on first access (then kept): user code sees a normal
 * Example, with floats as their float32 values (which is what the bytes hold). `features` lives on
 * the prototype, so a spread (`{ ...example }`) does not copy it: build a new Example with
 * `example(encoded.features)` instead.
 */
export class EncodedExample implements Example {
  readonly #buffer: Uint8Array;
  readonly #offset: number;
  readonly #frameRoom: boolean;
  readonly #position: Position | undefined;
  /** The length of the wire bytes. */
  readonly byteLength: number;
  #features: Features | undefined;

  /**
   * Wraps `byteLength` bytes of `buffer` from `offset`, which must never be written again.
   * @param frameRoom - the {@link FRAME_HEADER_BYTES} bytes before them and the
   *   {@link FRAME_TRAILER_BYTES} after them are this record's too, kept free for its TFRecord frame
   * @param position - where the record came from, read with `positionOf` (a field store here is
   *   cheaper than `withPosition`'s property definition per record)
   * @default frameRoom false
   */
  constructor(
    buffer: Uint8Array,
    offset: number,
    byteLength: number,
    frameRoom = false,
    position: Position | undefined = undefined,
  ) {
    this.#buffer = buffer;
    this.#offset = offset;
    this.byteLength = byteLength;
    this.#frameRoom = frameRoom;
    this.#position = position;
  }

  /** Where the record came from, when its builder said (`positionOf` reads it). */
  get [POSITION](): Position | undefined {
    return this.#position;
  }

  /** The buffer that holds the wire bytes (and other records' bytes): read it, never write it. */
  get buffer(): Uint8Array {
    return this.#buffer;
  }

  /** Where the wire bytes start in {@link buffer}. */
  get byteOffset(): number {
    return this.#offset;
  }

  /**
   * True when the 12 bytes before the wire bytes and the 4 after them are kept free for the record's
   * TFRecord frame (length, masked CRCs). A TFRecord sink may write exactly that frame there and
   * write the whole frame from the buffer, with no copy. The frame is a function of the bytes, so two
   * sinks writing the same record write the same bytes. Nothing else may write there.
   */
  get frameRoom(): boolean {
    return this.#frameRoom;
  }

  /** The features, decoded from the bytes once. */
  get features(): Features {
    // No decoded-memory budget: these bytes were encoded here from the caller's own values.
    return (this.#features ??= decodeExample(this[ENCODED], { maxDecodedBytes: Infinity }).features);
  }

  /** The wire bytes (a view, not a copy). */
  get [ENCODED](): Uint8Array {
    return this.#buffer.subarray(this.#offset, this.#offset + this.byteLength);
  }

  /** Copies the wire bytes into `target` at `offset`; returns the end offset. */
  copyInto(target: Uint8Array, offset: number): number {
    const length = this.byteLength;
    const source = this.#buffer;
    const start = this.#offset;
    // A view plus `set` has a fixed cost that a byte loop beats on short records.
    if (length <= 24) {
      for (let index = 0; index < length; index++) target[offset + index] = source[start + index]!;
    } else {
      copyBytes(target, source.subarray(start, start + length), offset);
    }
    return offset + length;
  }
}

/** The wire bytes an Example carries (see {@link ENCODED}), or undefined. */
export function encodedBytesOf(value: object): Uint8Array | undefined {
  return (value as MaybeEncoded)[ENCODED];
}
