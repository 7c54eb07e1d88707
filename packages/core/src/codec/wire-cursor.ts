import { TfpipeError } from '../errors/tfpipe-error.js';

/** How deeply unknown groups may nest before the input is called malformed (protobuf's default is 100). */
const MAX_GROUP_DEPTH = 100;

/**
 * A bounds-checked cursor over protobuf wire bytes: varints, tags, length prefixes and skipping
 * unknown fields, and int64s as two 32-bit halves (no bigint per value). Every failure is a `PROTO_DECODE` TfpipeError at the byte offset (from the start
 * of `bytes`) where the bad element starts. Core's decoder and the dataset's parser extend it.
 * Internal.
 */
export class WireCursor {
  /** The next byte to read. */
  position = 0;
  /** The low 32 bits of the last int64 read (as an unsigned number). */
  low = 0;
  /** The high 32 bits of the last int64 read (signed). */
  high = 0;

  constructor(
    /** The bytes read. */
    public bytes: Uint8Array,
    /** `'Example'` or `'SequenceExample'`, for messages. */
    readonly messageName: string,
  ) {}

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

  /** Reads an int64 varint (two's complement) into `low` / `high`; bits past the 64th are dropped, as protobuf does. */
  int64(end: number): void {
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
        this.low = low >>> 0;
        this.high = 0;
        return;
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
    this.low = low;
    this.high = high | 0;
  }

  /** Reads a length prefix and returns the end offset of the payload it announces. */
  lengthDelimited(end: number): number {
    const start = this.position;
    const length = this.varint(end);
    if (length > end - this.position) {
      // Past 2^53 the number is rounded: the message gives the varint's exact value.
      const exact = Number.isSafeInteger(length)
        ? String(length)
        : exactVarint(this.bytes, start, this.position);
      throw this.error(
        start,
        `length ${exact} runs past the end of its message (${end - this.position} bytes left)`,
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

  /** Fails unless the tag just read has the wire type the schema gives its field. */
  expectWireType(tag: number, tagStart: number, expected: number, field: string): void {
    if ((tag & 7) !== expected)
      throw this.error(tagStart, `${field} has wire type ${tag & 7}, expected ${expected}`);
  }

  /** Skips the value of an unknown field whose tag was just read (groups included, when well formed). */
  skip(tag: number, tagStart: number, end: number): void {
    const start = tagStart;
    const groups: number[] = [];
    for (;;) {
      switch (tag & 7) {
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
          if (groups.length >= MAX_GROUP_DEPTH) throw this.error(tagStart, 'groups nested too deeply');
          groups.push(Math.floor(tag / 8));
          break;
        case 4:
          if (groups.pop() !== Math.floor(tag / 8))
            throw this.error(tagStart, 'end-group tag without a matching start');
          break;
      }
      if (groups.length === 0) return;
      if (this.position >= end) throw this.error(start, 'group not closed before the end of its message');
      tagStart = this.position;
      tag = this.tag(end);
    }
  }

  /** Moves past a fixed-size value of `count` bytes whose tag started at `tagStart`. */
  protected advance(count: number, tagStart: number, end: number): void {
    if (end - this.position < count) throw this.error(tagStart, `truncated ${count * 8}-bit field`);
    this.position += count;
  }
}

/** The exact value of the varint in `bytes[start, end)`, in decimal. */
function exactVarint(bytes: Uint8Array, start: number, end: number): string {
  let value = 0n;
  for (let index = end - 1; index >= start; index--)
    value = (value << 7n) | BigInt((bytes[index] as number) & 0x7f);
  return value.toString();
}
