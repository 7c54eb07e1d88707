import { crc32cRange, maskCrc } from './crc32c.js';
import { HEADER_BYTES, writeFrameLength } from './frame-record.js';
import { fastCrc32cRange } from './native-crc32c.js';

/** Lengths up to this size have their header CRC cached (records of a file often share a length). */
const LARGEST_CACHED_LENGTH = 1 << 20;

function putUint32(target: Uint8Array, offset: number, value: number): void {
  target[offset] = value & 0xff;
  target[offset + 1] = (value >>> 8) & 0xff;
  target[offset + 2] = (value >>> 16) & 0xff;
  target[offset + 3] = value >>> 24;
}

/**
 * Frames records in the room their encoder left around them (`EncodedExample.frameRoom`): the
 * header goes into the 12 bytes before the payload, the data CRC into the 4 after it. Keeps a view
 * of the last buffer (records come from the same chunk, one after the other) and the last length's
 * header CRC.
 */
export class RoomFramer {
  #viewBuffer: Uint8Array | undefined;
  #view: DataView = new DataView(new ArrayBuffer(0));
  #headerLength = -1;
  #headerCrc = 0;

  /** Frames the `length` bytes at `offset` of `buffer`, in the 12 bytes before and 4 after them. */
  frame(buffer: Uint8Array, offset: number, length: number): void {
    const start = offset - HEADER_BYTES;
    const end = offset + length;
    writeFrameLength(buffer, start, length);
    let view = this.#view;
    if (this.#viewBuffer !== buffer) {
      view = this.#view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      this.#viewBuffer = buffer;
    }
    if (length !== this.#headerLength) {
      this.#headerCrc = maskCrc(crc32cRange(view, start, start + 8));
      this.#headerLength = length <= LARGEST_CACHED_LENGTH ? length : -1;
    }
    putUint32(buffer, start + 8, this.#headerCrc);
    putUint32(buffer, end, maskCrc(fastCrc32cRange(buffer, view, offset, end)));
  }
}
