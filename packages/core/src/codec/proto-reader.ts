import { TfpipeError } from '../errors/tfpipe-error.js';
import { WireCursor } from './wire-cursor.js';

/**
 * Core's cursor over an Example's or SequenceExample's wire bytes ({@link WireCursor}), with a
 * budget for the memory the decoded values take and int64s read as exact bigints.
 */
export class ProtoReader extends WireCursor {
  /** Decoded bytes still allowed (see {@link charge}). */
  #remaining: number;

  constructor(
    bytes: Uint8Array,
    messageName: string,
    /** The memory the decoded values may take, in bytes (see {@link charge}). @default Infinity */
    readonly maxDecodedBytes = Infinity,
  ) {
    super(bytes, messageName);
    this.#remaining = maxDecodedBytes;
  }

  /**
   * Counts `cost` bytes of decoded memory (JavaScript objects and copied bytes, as the decoder
   * estimates them) against `maxDecodedBytes`, before they are allocated.
   * @throws TfpipeError `RECORD_TOO_LARGE` at `byteOffset` once the budget is spent
   */
  charge(cost: number, byteOffset: number): void {
    this.#remaining -= cost;
    if (this.#remaining < 0) {
      throw new TfpipeError('RECORD_TOO_LARGE', `${this.messageName} too large to decode`, {
        position: { byteOffset },
        reason: `its values would take more than ${this.maxDecodedBytes} bytes of memory once decoded (the record has ${this.bytes.length} bytes)`,
      });
    }
  }

  /**
   * An int64 varint (two's complement, as Int64List stores it) as an exact bigint. Bits beyond the
   * 64th in a 10-byte varint are dropped, as protobuf's own parsers do.
   */
  bigint64(end: number): bigint {
    this.int64(end);
    const { low, high } = this;
    if (high >= 0 && high < 0x200000) return BigInt(high * 0x100000000 + low);
    if (high === -1 && low >= 0x80000000) return BigInt(low | 0);
    return BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low));
  }
}
