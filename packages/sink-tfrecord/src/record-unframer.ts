import type { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { TfpipeError, type TfpipeErrorCode } from '@tfpipe/core';
import { withPosition } from '@tfpipe/core/plugin';
import { crc32c, crc32cRange, unmaskCrc, type Crc32cFunction } from './crc32c.js';
import { FRAME_OVERHEAD, HEADER_BYTES } from './frame-record.js';
import type { Damage } from './damage.js';
import type { RecordPlace } from './payload-check.js';
import type { LostRegion, TfRecord } from './tf-record.js';

/** The default bound on one record's payload: 256 MiB. */
export const DEFAULT_MAX_RECORD_BYTES = 256 * 1024 * 1024;
/** The largest `maxRecordBytes` accepted: protobuf's 2 GiB message limit. */
export const MAX_RECORD_BYTES_LIMIT = 2 ** 31 - 1;
/** How many lost regions a report lists in full; the totals are always exact. */
export const MAX_LISTED_REGIONS = 1000;

const EMPTY = new Uint8Array(0);
const RELEASE_ABOVE = 4 * 1024 * 1024;
const MIN_CAPACITY = 64 * 1024;

/** Takes one verified payload, `buffer[start, end)`, with its place (see `RecordUnframerSettings.take`). */
export type RecordTake = (
  buffer: Uint8Array,
  start: number,
  end: number,
  recordIndex: number,
  byteOffset: number,
  dataCrc: number,
) => void;

/** What {@link RecordUnframer} needs. */
export interface RecordUnframerSettings {
  readonly file: string;
  readonly stage: string;
  readonly maxRecordBytes: number;
  readonly policy: RecordErrorPolicy;
  readonly crc: Crc32cFunction;
  /**
   * False to verify and count records without handing them out: no payload copy, no record object,
   * which is most of the cost of a tiny record (`countRecords`, `verifyTfrecord`).
   * @default true
   */
  readonly emit?: boolean;
  /**
   * Looks at each record's payload (a view into the read buffer, valid only during the call) once its
   * CRCs hold: false rejects it, uncounted (the check reports why through the error policy).
   * `verifyTfrecord` parses payloads with it.
   */
  readonly check?: (data: Uint8Array, place: RecordPlace) => boolean;
  /**
   * Takes each record's payload once its CRCs hold, as `buffer[start, end)` of the read buffer (valid
   * only during the call), with its index, the file offset of its first framing byte and its stored
   * masked data CRC (given when `verifyData` is false, else 0): no view and no place object per
   * record. Used instead of `check`; the record is always accepted, counted and not handed out (as
   * with `emit: false`).
   */
  readonly take?: RecordTake;
  /**
   * False to leave each record's data CRC to whoever takes it (a parse worker): the length CRC is
   * still checked, and `check` then gets the stored masked data CRC as `place.dataCrc`. Only for
   * `onError: 'fail'`: resynchronisation after damage needs the data CRC here.
   * @default true
   */
  readonly verifyData?: boolean;
  /**
   * CRC-32C of `buffer[start, end)` given a `DataView` over the same bytes (`fastCrc32cRange`: the
   * native CRC over large records, the JS one over small ones); used instead of `crc` when given.
   */
  readonly crcRange?: (buffer: Uint8Array, view: DataView, start: number, end: number) => number;
}

interface Resync {
  /** Stream offset where the lost region began. */
  readonly lostStart: number;
  readonly error: TfpipeError;
  /** Where the damaged frame claimed to end: tried first, since its length CRC held. */
  preferred: number | undefined;
}

/**
 * The incremental TFRecord parser behind `unframeRecords` and `tfrecordSource`. It takes bytes in
 * chunks of any size, checks each header's length CRC before it trusts (or allocates) the length, bounds
 * the length by `maxRecordBytes`, then checks the data CRC. Under `onError: 'skip'` it resynchronises:
 * it scans forward byte by byte for the next header whose length CRC holds and whose data CRC then
 * verifies, and records the byte range it lost.
 */
export class RecordUnframer {
  readonly #settings: RecordUnframerSettings;
  #buffer: Uint8Array = EMPTY;
  #start = 0;
  #end = 0;
  #owned = false;
  /** Stream offset of `#buffer[#start]`. */
  #position = 0;
  /** Bytes the current frame needs from `#start`: the size to allocate once when it spans chunks. */
  #wanted = 0;
  #recordIndex = 0;
  #discard = 0;
  #resync: Resync | undefined;
  #lastRegion: { end: number; bytes: number } | undefined;
  /** Lost regions (the first {@link MAX_LISTED_REGIONS}). */
  readonly lost: LostRegion[] = [];
  /** All lost regions, counted. */
  lostRegions = 0;
  /** All lost bytes, counted. */
  lostBytes = 0;
  /** Records that verified (handed out, unless `emit` is false). */
  records = 0;
  /** With the JS CRC: a view of the buffer for `crc32cRange`, so no record costs a view or a subarray. */
  readonly #viewCrc: boolean;
  #view: DataView | undefined;
  #viewOf: Uint8Array | undefined;
  /** The last header whose length CRC held: its length's low and high words and its stored CRC. */
  #lastLow = -1;
  #lastHigh = -1;
  #lastStored = -1;

  constructor(settings: RecordUnframerSettings) {
    this.#settings = settings;
    this.#viewCrc = settings.crc === crc32c || settings.crcRange !== undefined;
  }

  /** Bytes taken in so far. */
  get bytes(): number {
    return this.#position + (this.#end - this.#start);
  }

  /** Parses `chunk` and appends every complete record to `out`. Throws under `onError: 'fail'`. */
  push(chunk: Uint8Array, out: TfRecord[]): void {
    if (chunk.length === 0) return;
    this.#append(chunk);
    this.#parse(out, false);
    this.#release();
  }

  /** The stream ended: a partial frame left over is a truncated record. */
  end(out: TfRecord[]): void {
    this.#parse(out, true);
    if (this.#discard > 0) {
      // The oversized record's frame runs past the end of the stream: the region ends at the end.
      const last = this.#lastRegion;
      if (last !== undefined) {
        this.lostBytes -= this.#discard;
        last.end -= this.#discard;
        last.bytes -= this.#discard;
      }
      this.#discard = 0;
      return;
    }
    const available = this.#end - this.#start;
    if (this.#resync === undefined && available > 0) {
      const reason =
        available < HEADER_BYTES
          ? `the header needs 12 bytes, the stream ends after ${available}`
          : `the frame needs ${this.#wanted} bytes, the stream ends after ${available}`;
      const error = this.#error('RECORD_TRUNCATED', 'truncated record', reason);
      this.#settings.policy.handle(error);
      this.#resync = { lostStart: this.#position, error, preferred: undefined };
      this.#advance(1);
      this.#parse(out, true);
    }
    if (this.#resync !== undefined) this.#closeRegion(this.#position + (this.#end - this.#start), undefined);
    this.#buffer = EMPTY;
    this.#start = this.#end = 0;
  }

  /**
   * Ends the stream at a decompression failure: the bytes after `bytes` never arrived. Without
   * `damage` one region runs from the last good record to `bytes`. With it (the compressed file
   * offsets lost, from the Node decompressor), a record cut short is one region in stream offsets and
   * the compressed bytes another, in file offsets: trailing junk after a complete gzip stream loses
   * exactly its own bytes.
   */
  abandon(error: TfpipeError, damage?: Damage): void {
    const start = this.#resync?.lostStart ?? this.#position;
    const resync = this.#resync;
    this.#resync = undefined;
    if (damage === undefined) this.#addRegion(start, this.bytes, error, undefined);
    else {
      if (this.bytes > start) {
        const cut =
          resync?.error ??
          this.#error('RECORD_TRUNCATED', 'truncated record', 'cut short where decompression failed');
        this.#addRegion(start, this.bytes, cut, undefined);
        this.#recordIndex++;
      }
      this.#addRegion(damage.start, damage.end, error, undefined);
    }
    this.#buffer = EMPTY;
    this.#start = this.#end = 0;
  }

  #parse(out: TfRecord[], final: boolean): void {
    for (;;) {
      if (this.#discard > 0) {
        const step = Math.min(this.#discard, this.#end - this.#start);
        this.#discard -= step;
        this.#advance(step);
        if (this.#discard > 0) return;
      }
      if (this.#resync !== undefined && !this.#scan(final)) return;
      const available = this.#end - this.#start;
      if (available < HEADER_BYTES) return;
      const buffer = this.#buffer;
      const start = this.#start;
      const length = this.#headerLength(buffer, start);
      if (length === undefined) {
        this.#fail('RECORD_CRC', 'corrupted record', 'length CRC mismatch', undefined);
        continue;
      }
      if (length > this.#settings.maxRecordBytes) {
        const exact = new DataView(buffer.buffer, buffer.byteOffset + start, 8).getBigUint64(0, true);
        const reason = `length ${exact} bytes exceeds maxRecordBytes ${this.#settings.maxRecordBytes}`;
        const error = this.#error('RECORD_TOO_LARGE', 'record too large', reason);
        this.#settings.policy.handle(error);
        this.#addRegion(this.#position, this.#position + length + FRAME_OVERHEAD, error, 1);
        this.#recordIndex++;
        this.#discard = length + FRAME_OVERHEAD;
        continue;
      }
      const frameBytes = length + FRAME_OVERHEAD;
      if (available < frameBytes) {
        this.#wanted = frameBytes;
        return;
      }
      this.#wanted = 0;
      const dataStart = start + HEADER_BYTES;
      const verifyData = this.#settings.verifyData !== false;
      if (verifyData && !this.#dataValid(buffer, dataStart, length)) {
        this.#fail('RECORD_CRC', 'corrupted record', 'data CRC mismatch', this.#position + frameBytes);
        continue;
      }
      const take = this.#settings.take;
      if (take !== undefined) {
        const dataCrc = verifyData ? 0 : readUint32(buffer, dataStart + length);
        take(buffer, dataStart, dataStart + length, this.#recordIndex, this.#position, dataCrc);
        this.records++;
        this.#recordIndex++;
        this.#advance(frameBytes);
        continue;
      }
      const check = this.#settings.check;
      const place: RecordPlace = verifyData
        ? { file: this.#settings.file, recordIndex: this.#recordIndex, byteOffset: this.#position }
        : {
            file: this.#settings.file,
            recordIndex: this.#recordIndex,
            byteOffset: this.#position,
            dataCrc: readUint32(buffer, dataStart + length),
          };
      if (check !== undefined && !check(buffer.subarray(dataStart, dataStart + length), place)) {
        this.#recordIndex++;
        this.#advance(frameBytes);
        continue;
      }
      if (this.#settings.emit !== false) {
        const record: TfRecord = {
          data: buffer.slice(dataStart, dataStart + length),
          file: this.#settings.file,
          recordIndex: this.#recordIndex,
          byteOffset: this.#position,
        };
        out.push(
          withPosition(record, {
            file: record.file,
            recordIndex: record.recordIndex,
            byteOffset: record.byteOffset,
          }),
        );
      }
      this.records++;
      this.#recordIndex++;
      this.#advance(frameBytes);
    }
  }

  /** Scans for the next trustworthy frame. True once found (parsing resumes there), false to wait. */
  #scan(final: boolean): boolean {
    const resync = this.#resync!;
    if (resync.preferred !== undefined && final && resync.preferred === this.bytes) {
      // The damaged frame was the last one: it alone is lost.
      this.#advance(resync.preferred - this.#position);
      this.#closeRegion(resync.preferred, 1);
      return true;
    }
    if (resync.preferred !== undefined) {
      const verdict = this.#candidate(resync.preferred - this.#position, final);
      if (verdict === 'wait') return false;
      if (verdict === 'valid') {
        this.#advance(resync.preferred - this.#position);
        this.#closeRegion(resync.preferred, 1);
        return true;
      }
      resync.preferred = undefined;
    }
    for (;;) {
      if (this.#end - this.#start < HEADER_BYTES && !final) return false;
      if (this.#end - this.#start < HEADER_BYTES) {
        this.#advance(this.#end - this.#start);
        return false;
      }
      const verdict = this.#candidate(0, final);
      if (verdict === 'wait') return false;
      if (verdict === 'valid') {
        this.#closeRegion(this.#position, undefined);
        return true;
      }
      this.#advance(1);
    }
  }

  /** Whether a frame starting `offset` bytes past `#start` verifies completely. */
  #candidate(offset: number, final: boolean): 'valid' | 'invalid' | 'wait' {
    const at = this.#start + offset;
    const available = this.#end - at;
    if (available < HEADER_BYTES) return final ? 'invalid' : 'wait';
    const length = this.#headerLength(this.#buffer, at);
    if (length === undefined || length > this.#settings.maxRecordBytes) {
      this.#wanted = 0;
      return 'invalid';
    }
    if (available < length + FRAME_OVERHEAD) {
      if (final) return 'invalid';
      this.#wanted = offset + length + FRAME_OVERHEAD;
      return 'wait';
    }
    this.#wanted = 0;
    return this.#dataValid(this.#buffer, at + HEADER_BYTES, length) ? 'valid' : 'invalid';
  }

  /** The header's length when its length CRC holds, else undefined. */
  #headerLength(buffer: Uint8Array, at: number): number | undefined {
    const low = readUint32(buffer, at);
    const high = readUint32(buffer, at + 4);
    const stored = readUint32(buffer, at + 8);
    // Records of one length share their header (tabular records repeat lengths): the last header
    // that verified needs no CRC again.
    if (low !== this.#lastLow || high !== this.#lastHigh || stored !== this.#lastStored) {
      if (unmaskCrc(stored) !== this.#crc(buffer, at, at + 8)) return undefined;
      this.#lastLow = low;
      this.#lastHigh = high;
      this.#lastStored = stored;
    }
    // Beyond 2^53 a JS number is inexact; any such length is far past every allowed maximum anyway.
    return high >= 0x20_0000 ? Number.MAX_SAFE_INTEGER : high * 0x1_0000_0000 + low;
  }

  #dataValid(buffer: Uint8Array, dataStart: number, length: number): boolean {
    return (
      unmaskCrc(readUint32(buffer, dataStart + length)) === this.#crc(buffer, dataStart, dataStart + length)
    );
  }

  #crc(buffer: Uint8Array, start: number, end: number): number {
    if (!this.#viewCrc) return this.#settings.crc(buffer.subarray(start, end));
    if (this.#viewOf !== buffer) {
      this.#view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      this.#viewOf = buffer;
    }
    const range = this.#settings.crcRange;
    return range === undefined
      ? crc32cRange(this.#view!, start, end)
      : range(buffer, this.#view!, start, end);
  }

  #fail(code: TfpipeErrorCode, detail: string, reason: string, preferred: number | undefined): void {
    const error = this.#error(code, detail, reason);
    this.#settings.policy.handle(error);
    this.#resync = { lostStart: this.#position, error, preferred };
    this.#advance(1);
  }

  #error(code: TfpipeErrorCode, detail: string, reason: string): TfpipeError {
    return new TfpipeError(code, detail, {
      stage: this.#settings.stage,
      reason,
      position: { file: this.#settings.file, byteOffset: this.#position, recordIndex: this.#recordIndex },
    });
  }

  #closeRegion(end: number, records: number | undefined): void {
    const resync = this.#resync!;
    this.#resync = undefined;
    this.#addRegion(resync.lostStart, end, resync.error, records);
    this.#recordIndex++;
  }

  #addRegion(start: number, end: number, error: TfpipeError, records: number | undefined): void {
    this.lostRegions++;
    this.lostBytes += end - start;
    this.#lastRegion = undefined;
    if (this.lost.length >= MAX_LISTED_REGIONS) return;
    const region = {
      file: this.#settings.file,
      start,
      end,
      bytes: end - start,
      code: error.code,
      reason: error.reason ?? error.detail,
      records,
    };
    this.#lastRegion = region;
    this.lost.push(region);
  }

  #advance(count: number): void {
    this.#start += count;
    this.#position += count;
  }

  #append(chunk: Uint8Array): void {
    const live = this.#end - this.#start;
    if (live === 0) {
      // Parse straight from the caller's chunk; only a leftover partial frame is ever copied.
      this.#buffer = chunk;
      this.#start = 0;
      this.#end = chunk.length;
      this.#owned = false;
      return;
    }
    const needed = live + chunk.length;
    if (this.#owned && this.#buffer.length - this.#end >= chunk.length) {
      this.#buffer.set(chunk, this.#end);
      this.#end += chunk.length;
      return;
    }
    if (this.#owned && this.#buffer.length >= needed) {
      this.#buffer.copyWithin(0, this.#start, this.#end);
    } else {
      const doubled = this.#owned ? this.#buffer.length * 2 : 0;
      const grown = new Uint8Array(Math.max(needed, this.#wanted, doubled, MIN_CAPACITY));
      grown.set(this.#buffer.subarray(this.#start, this.#end));
      this.#buffer = grown;
      this.#owned = true;
    }
    this.#start = 0;
    this.#end = live;
    this.#buffer.set(chunk, this.#end);
    this.#end += chunk.length;
  }

  #release(): void {
    if (this.#start === this.#end && this.#owned && this.#buffer.length > RELEASE_ABOVE) {
      this.#buffer = EMPTY;
      this.#owned = false;
      this.#start = this.#end = 0;
    }
  }
}

function readUint32(buffer: Uint8Array, at: number): number {
  return (buffer[at]! | (buffer[at + 1]! << 8) | (buffer[at + 2]! << 16) | (buffer[at + 3]! << 24)) >>> 0;
}
