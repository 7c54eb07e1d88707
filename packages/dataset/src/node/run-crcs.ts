import { loadNativeCrc32c } from '@tfpipe/node-utils';
import type { NativeCrc32c } from '@tfpipe/node-utils';
import { crc32cCombine, crc32cRange, unmaskCrc } from '@tfpipe/sink-tfrecord/internal';
import { perRecordCrcs } from '../parse/span-crcs.js';
import type { SpanCrcCheck } from '../parse/span-crcs.js';

/** Records from this many bytes up get a native CRC call each rather than a place in a run. */
const OWN_CALL_BYTES = 4096;
/** The record lengths below {@link OWN_CALL_BYTES} have at most this many bits. */
const LENGTH_BITS = 12;

/**
 * `ZEROS[k]`: four 256-entry tables of the linear map "append 2^k zero bytes" on a CRC register
 * (`crc32cCombine(crc, 0, 2^k)`), one table per byte of the register.
 */
let ZEROS: Int32Array[] | undefined;

function zeroTables(): Int32Array[] {
  return Array.from({ length: LENGTH_BITS }, (_, power) => {
    const bytes = 2 ** power;
    const basis = Array.from({ length: 32 }, (_, bit) => crc32cCombine((1 << bit) >>> 0, 0, bytes) | 0);
    const table = new Int32Array(1024);
    for (let part = 0; part < 4; part++)
      for (let value = 1; value < 256; value++) {
        const low = 31 - Math.clz32(value & -value);
        table[part * 256 + value] = table[part * 256 + (value & (value - 1))]! ^ basis[part * 8 + low]!;
      }
    return table;
  });
}

/** `crc32cCombine(crc, 0, length)` for a `length` below 2^12, through the tables. */
function appendZeros(zeros: readonly Int32Array[], crc: number, length: number): number {
  for (let power = 0; length !== 0; power++, length >>>= 1) {
    if ((length & 1) === 0) continue;
    const table = zeros[power]!;
    crc =
      table[crc & 0xff]! ^
      table[256 + ((crc >>> 8) & 0xff)]! ^
      table[512 + ((crc >>> 16) & 0xff)]! ^
      table[768 + (crc >>> 24)]!;
  }
  return crc;
}

/**
 * The data CRC check of a batch in Node: one native CRC-32C call over each run of records, compared
 * with the CRC the records' stored CRCs imply for the run (CRC-32C is linear: the CRC of `A‖B` is
 * `crc(A)` moved past `|B|` zero bytes, xor `crc(B)`), instead of a JavaScript CRC per record. A run
 * that does not match is checked record by record, so the record named is the first whose own CRC
 * fails, as before. Without the native CRC: one JavaScript CRC per record. Internal.
 */
export function nodeSpanCrcs(native: NativeCrc32c | null = loadNativeCrc32c()): SpanCrcCheck {
  const each = perRecordCrcs((bytes, view, start, end) => crc32cRange(view, start, end));
  if (native === null) return each;
  return (bytes, ends, count, crcs) => {
    const zeros = (ZEROS ??= zeroTables());
    let runFirst = 0;
    let runStart = 0;
    let implied = 0;
    let start = 0;
    // A run ends before a long record (which gets a call of its own) and at the end of the batch.
    const runFails = (end: number): boolean =>
      end > runStart && (native(bytes.subarray(runStart, end)) | 0) !== (implied | 0);
    for (let index = 0; index < count; index++) {
      const end = ends[index]!;
      const length = end - start;
      if (length < OWN_CALL_BYTES) {
        implied = appendZeros(zeros, implied, length) ^ unmaskCrc(crcs[index]!);
      } else {
        if (runFails(start)) {
          const bad = each(bytes, ends, count, crcs, runFirst, index);
          if (bad >= 0) return bad;
        }
        if (native(bytes.subarray(start, end)) >>> 0 !== unmaskCrc(crcs[index]!)) return index;
        runFirst = index + 1;
        runStart = end;
        implied = 0;
      }
      start = end;
    }
    return runFails(start) ? each(bytes, ends, count, crcs, runFirst, count) : -1;
  };
}
