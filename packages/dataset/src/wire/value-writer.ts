import { TfpipeError } from '@tfpipe/core';
import { KIND_BYTES, KIND_FLOAT } from './feature-locator.js';
import type { FeatureLocator } from './feature-locator.js';
import { LITTLE_ENDIAN } from './value-buffer.js';
import type { ValueBuffer } from './value-buffer.js';

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;
const LOW = LITTLE_ENDIAN ? 0 : 1;
const HIGH = 1 - LOW;
const TWO_POW_32 = 4294967296;
/** Up to this many packed floats are read one by one rather than copied as bytes. */
const SMALL_COPY = 16;

function rangeError(
  key: string,
  exampleIndex: number,
  low: number,
  high: number,
  dtype: string,
): TfpipeError {
  const value = BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0));
  return new TfpipeError(
    'INT64_RANGE',
    `Key: ${key}, Index: ${exampleIndex}.  Value ${value} does not fit dtype '${dtype}'`,
    { position: { field: key } },
  );
}

/**
 * Counts the values of the lists `locator.resolve` left, of Feature kind `kind`. Packed int64 varints
 * are counted by their last bytes; a malformed one is caught when the values are written.
 */
export function countValues(locator: FeatureLocator, kind: number): number {
  const reader = locator.reader;
  const bytes = reader.bytes;
  let count = 0;
  for (let list = 0; list < locator.listCount; list++) {
    reader.position = locator.listStarts[list] as number;
    const end = locator.listEnds[list] as number;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      if (tag >>> 3 !== 1) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      const wireType = tag & 7;
      if (kind === KIND_BYTES) {
        reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, 'BytesList.value');
        reader.position = reader.lengthDelimited(end);
        count++;
      } else if (kind === KIND_FLOAT && wireType === WIRE_FIXED32) {
        if (end - reader.position < 4) throw reader.error(tagStart, 'truncated float');
        reader.position += 4;
        count++;
      } else if (kind !== KIND_FLOAT && wireType === WIRE_VARINT) {
        reader.int64(end);
        count++;
      } else {
        reader.expectWireType(
          tag,
          tagStart,
          WIRE_LENGTH_DELIMITED,
          kind === KIND_FLOAT ? 'FloatList.value' : 'Int64List.value',
        );
        const valuesEnd = reader.lengthDelimited(end);
        const length = valuesEnd - reader.position;
        if (kind === KIND_FLOAT) {
          if (length % 4 !== 0)
            throw reader.error(reader.position, `packed floats take ${length} bytes, not a multiple of 4`);
          count += length / 4;
        } else {
          if (length > 0 && (bytes[valuesEnd - 1] as number) >= 0x80)
            throw reader.error(valuesEnd - 1, 'truncated varint');
          for (let index = reader.position; index < valuesEnd; index++)
            if ((bytes[index] as number) < 0x80) count++;
        }
        reader.position = valuesEnd;
      }
    }
  }
  return count;
}

/**
 * Writes the values of the resolved lists into `buffer.data` from `offset`, at most `limit` of them;
 * returns how many there are in all (so a caller expecting `limit` sees a wrong count). `key` and
 * `exampleIndex` name the feature in errors. An int64 read
 * as `'int32'` or `'number'` that does not fit fails with `INT64_RANGE`.
 */
export function writeValues(
  locator: FeatureLocator,
  kind: number,
  buffer: ValueBuffer,
  offset: number,
  limit: number,
  key: string,
  exampleIndex: number,
): number {
  // One function per kind keeps each one's array accesses of a single type, which V8 compiles best.
  if (kind === KIND_BYTES) return writeBytes(locator, buffer.data as Uint8Array[], offset, limit);
  if (kind === KIND_FLOAT) return writeFloats(locator, buffer.data as Float32Array, offset, limit);
  return writeInt64s(locator, buffer, offset, limit, key, exampleIndex);
}

function writeBytes(locator: FeatureLocator, data: Uint8Array[], offset: number, limit: number): number {
  const reader = locator.reader;
  const bytes = reader.bytes;
  let count = 0;
  for (let list = 0; list < locator.listCount; list++) {
    reader.position = locator.listStarts[list] as number;
    const end = locator.listEnds[list] as number;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      if (tag >>> 3 !== 1) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, 'BytesList.value');
      const valueEnd = reader.lengthDelimited(end);
      // A copy: `bytes` is a plain Uint8Array (see WireReader.reset), so slice copies.
      if (count < limit) data[offset + count] = bytes.slice(reader.position, valueEnd);
      count++;
      reader.position = valueEnd;
    }
  }
  return count;
}

function writeFloats(locator: FeatureLocator, floats: Float32Array, offset: number, limit: number): number {
  const reader = locator.reader;
  const bytes = reader.bytes;
  let count = 0;
  for (let list = 0; list < locator.listCount; list++) {
    reader.position = locator.listStarts[list] as number;
    const end = locator.listEnds[list] as number;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      if (tag >>> 3 !== 1) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      if ((tag & 7) === WIRE_FIXED32) {
        if (end - reader.position < 4) throw reader.error(tagStart, 'truncated float');
        if (count < limit) floats[offset + count] = readFloat(bytes, reader.position);
        count++;
        reader.position += 4;
        continue;
      }
      reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, 'FloatList.value');
      const valuesEnd = reader.lengthDelimited(end);
      const length = valuesEnd - reader.position;
      if (length % 4 !== 0)
        throw reader.error(reader.position, `packed floats take ${length} bytes, not a multiple of 4`);
      const take = Math.max(0, Math.min(length / 4, limit - count));
      if (take > SMALL_COPY && LITTLE_ENDIAN) {
        new Uint8Array(floats.buffer, floats.byteOffset + (offset + count) * 4, take * 4).set(
          bytes.subarray(reader.position, reader.position + take * 4),
        );
      } else if (take > 0) {
        // A few floats are quicker read one by one than copied through two new views.
        for (let index = 0; index < take; index++)
          floats[offset + count + index] = readFloat(bytes, reader.position + index * 4);
      }
      count += length / 4;
      reader.position = valuesEnd;
    }
  }
  return count;
}

function writeInt64s(
  locator: FeatureLocator,
  buffer: ValueBuffer,
  offset: number,
  limit: number,
  key: string,
  exampleIndex: number,
): number {
  const reader = locator.reader;
  let count = 0;
  for (let list = 0; list < locator.listCount; list++) {
    reader.position = locator.listStarts[list] as number;
    const end = locator.listEnds[list] as number;
    while (reader.position < end) {
      const tagStart = reader.position;
      const tag = reader.tag(end);
      if (tag >>> 3 !== 1) {
        reader.skip(tag, tagStart, end);
        continue;
      }
      if ((tag & 7) === WIRE_VARINT) {
        reader.int64(end);
        if (count < limit) storeInt64(buffer, offset + count, reader.low, reader.high, key, exampleIndex);
        count++;
        continue;
      }
      reader.expectWireType(tag, tagStart, WIRE_LENGTH_DELIMITED, 'Int64List.value');
      const valuesEnd = reader.lengthDelimited(end);
      while (reader.position < valuesEnd) {
        reader.int64(valuesEnd);
        if (count < limit) storeInt64(buffer, offset + count, reader.low, reader.high, key, exampleIndex);
        count++;
      }
    }
  }
  return count;
}

const SCRATCH_FLOAT = new Float32Array(1);
const SCRATCH_BYTES = new Uint8Array(SCRATCH_FLOAT.buffer);

/** The little-endian float32 at `position`, read through a scratch word rather than a new DataView. */
function readFloat(bytes: Uint8Array, position: number): number {
  if (LITTLE_ENDIAN) {
    SCRATCH_BYTES[0] = bytes[position] as number;
    SCRATCH_BYTES[1] = bytes[position + 1] as number;
    SCRATCH_BYTES[2] = bytes[position + 2] as number;
    SCRATCH_BYTES[3] = bytes[position + 3] as number;
  } else {
    SCRATCH_BYTES[3] = bytes[position] as number;
    SCRATCH_BYTES[2] = bytes[position + 1] as number;
    SCRATCH_BYTES[1] = bytes[position + 2] as number;
    SCRATCH_BYTES[0] = bytes[position + 3] as number;
  }
  return SCRATCH_FLOAT[0] as number;
}

function storeInt64(
  buffer: ValueBuffer,
  index: number,
  low: number,
  high: number,
  key: string,
  exampleIndex: number,
): void {
  const words = buffer.words;
  if (words !== undefined) {
    words[index * 2 + LOW] = low;
    words[index * 2 + HIGH] = high;
  } else if (buffer.dtype === 'int32') {
    if (high !== (low | 0) >> 31) throw rangeError(key, exampleIndex, low, high, 'int32');
    (buffer.data as Int32Array)[index] = low;
  } else {
    const value = high * TWO_POW_32 + low;
    if (high < -0x200000 || high > 0x1fffff || !Number.isSafeInteger(value))
      throw rangeError(key, exampleIndex, low, high, 'number');
    (buffer.data as Float64Array)[index] = value;
  }
}
