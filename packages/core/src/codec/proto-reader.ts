import { TfpipeError } from '../errors/tfpipe-error.js';

/** How deeply unknown groups may nest before the input is called malformed (protobuf's default is 100). */
const MAX_GROUP_DEPTH = 100;

/**
 * A bounds-checked cursor over protobuf wire bytes. Every failure is a `PROTO_DECODE` TfpipeError
 * with the byte offset (from the start of the decoded bytes) where the bad element starts.
 */
export class ProtoReader {
  /** The next byte to read. */
  position = 0;
  /** Decoded bytes still allowed (see {@link charge}). */
  #remaining: number;

  constructor(
    readonly bytes: Uint8Array,
    /** `'Example'` or `'SequenceExample'`, for messages. */
    readonly messageName: string,
    /** The memory the decoded values may take, in bytes (see {@link charge}). @default Infinity */
    readonly maxDecodedBytes = Infinity,
  ) {
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

  /** A `PROTO_DECODE` error at `byteOffset`. */
  error(byteOffset: number, reason: string): TfpipeError {
    return new TfpipeError('PROTO_DECODE', `malformed ${this.messageName}`, {
      position: { byteOffset },
      reason,
    });
  }

  /** A varint as a number (exact below 2^53; tags and lengths are far smaller). */
  varint(end: number): number {
    const bytes = this.bytes;
    const start = this.position;
    if (start < end) {
      const first = bytes[start] as number;
      if (first < 0x80) {
        this.position = start + 1;
        return first;
      }
    }
    let result = 0;
    let multiplier = 1;
    let position = start;
    for (let index = 0; index < 10; index++) {
      if (position >= end) throw this.error(start, 'truncated varint');
      const byte = bytes[position++] as number;
      result += (byte & 0x7f) * multiplier;
      if (byte < 0x80) {
        this.position = position;
        return result;
      }
      multiplier *= 128;
    }
    throw this.error(start, 'varint longer than 10 bytes');
  }

  /**
   * An int64 varint (two's complement, as Int64List stores it) as an exact bigint. Bits beyond the
   * 64th in a 10-byte varint are dropped, as protobuf's own parsers do.
   */
  int64(end: number): bigint {
    const bytes = this.bytes;
    const start = this.position;
    let position = start;
    let low = 0;
    let byte = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (position >= end) throw this.error(start, 'truncated varint');
      byte = bytes[position++] as number;
      low |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.position = position;
        return BigInt(low);
      }
    }
    if (position >= end) throw this.error(start, 'truncated varint');
    byte = bytes[position++] as number;
    low = (low | ((byte & 0x7f) << 28)) >>> 0;
    let high = (byte & 0x7f) >> 4;
    if (byte >= 0x80) {
      for (let shift = 3; ; shift += 7) {
        if (shift > 31) throw this.error(start, 'varint longer than 10 bytes');
        if (position >= end) throw this.error(start, 'truncated varint');
        byte = bytes[position++] as number;
        high |= (byte & 0x7f) << shift;
        if (byte < 0x80) break;
      }
    }
    this.position = position;
    high >>>= 0;
    if (high < 0x200000) return BigInt(high * 0x100000000 + low);
    if (high === 0xffffffff && low >= 0x80000000) return BigInt(low | 0);
    return BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low));
  }

  /** Reads a length prefix and returns the end offset of the payload it announces. */
  lengthDelimited(end: number): number {
    const start = this.position;
    const length = this.varint(end);
    if (length > end - this.position) {
      throw this.error(
        start,
        `length ${length} runs past the end of its message (${end - this.position} bytes left)`,
      );
    }
    return this.position + length;
  }

  /** Reads a tag; returns it as `fieldNumber * 8 + wireType`, rejecting field 0 and wire types 6 and 7. */
  tag(end: number): number {
    const start = this.position;
    const tag = this.varint(end);
    if (tag > 0xffffffff) throw this.error(start, 'tag longer than 32 bits');
    if (tag < 8) throw this.error(start, 'field number 0');
    const wireType = tag & 7;
    if (wireType === 6 || wireType === 7) throw this.error(start, `invalid wire type ${wireType}`);
    return tag;
  }

  /** Skips the value of an unknown field whose tag was just read (groups included, when well formed). */
  skip(tag: number, tagStart: number, end: number): void {
    const start = tagStart;
    let depth = 0;
    const groups: number[] = [];
    for (;;) {
      const wireType = tag & 7;
      switch (wireType) {
        case 0:
          this.varint(end);
          break;
        case 1:
          this.advance(8, tagStart, end);
          break;
        case 2:
          this.position = this.lengthDelimited(end);
          break;
        case 5:
          this.advance(4, tagStart, end);
          break;
        case 3:
          if (++depth > MAX_GROUP_DEPTH) throw this.error(tagStart, 'groups nested too deeply');
          groups.push(Math.floor(tag / 8));
          break;
        case 4:
          if (groups.pop() !== Math.floor(tag / 8))
            throw this.error(tagStart, 'end-group tag without a matching start');
          depth--;
          break;
      }
      if (groups.length === 0) return;
      if (this.position >= end) throw this.error(start, 'group not closed before the end of its message');
      tagStart = this.position;
      tag = this.tag(end);
    }
  }

  private advance(count: number, tagStart: number, end: number): void {
    if (end - this.position < count) throw this.error(tagStart, `truncated ${count * 8}-bit field`);
    this.position += count;
  }
}
