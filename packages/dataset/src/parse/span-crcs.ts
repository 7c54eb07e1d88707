import { TfpipeError } from '@tfpipe/core';
import { crc32c, unmaskCrc } from '@tfpipe/sink-tfrecord/web';

/** The CRC-32C of `bytes[start, end)` (`view` is a DataView over the same bytes). */
export type RangeCrc = (bytes: Uint8Array, view: DataView, start: number, end: number) => number;

/**
 * Checks the stored (masked) data CRCs of records lying back to back in `bytes` (record `i` ends at
 * `ends[i]`, its CRC is `crcs[i]`): the index of the first record whose CRC does not hold, or -1.
 * Internal.
 */
export type SpanCrcCheck = (
  bytes: Uint8Array,
  ends: ArrayLike<number>,
  count: number,
  crcs: Uint32Array,
) => number;

/** A {@link SpanCrcCheck} computing each record's CRC with `crc` from `from` on. */
export function perRecordCrcs(
  crc: RangeCrc,
): (
  bytes: Uint8Array,
  ends: ArrayLike<number>,
  count: number,
  crcs: Uint32Array,
  from?: number,
  to?: number,
) => number {
  return (bytes, ends, count, crcs, from = 0, to = count) => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = from === 0 ? 0 : ends[from - 1]!;
    for (let index = from; index < to; index++) {
      const end = ends[index]!;
      if (crc(bytes, view, start, end) !== unmaskCrc(crcs[index]!)) return index;
      start = end;
    }
    return -1;
  };
}

/** The web entry's check: the JavaScript CRC-32C of each record. Internal. */
export const webSpanCrcs: SpanCrcCheck = perRecordCrcs((bytes, _view, start, end) =>
  crc32c(bytes.subarray(start, end)),
);

/** Where a record sits, for its error. */
export interface RecordPlace {
  readonly file: string;
  readonly recordIndex: number;
  readonly byteOffset: number;
}

/** The reader's own error for a record whose data CRC does not hold (as `RecordUnframer` raises it). */
export function dataCrcError(place: RecordPlace): TfpipeError {
  return new TfpipeError('RECORD_CRC', 'corrupted record', {
    stage: 'tfrecordDataset',
    reason: 'data CRC mismatch',
    position: { file: place.file, byteOffset: place.byteOffset, recordIndex: place.recordIndex },
  });
}
