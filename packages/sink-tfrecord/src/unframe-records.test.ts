import fc from 'fast-check';
import { TfpipeError, positionOf, reportOf, type StageReport } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { collect, frameOffsets, framedFile, hex, randomPayloads, streamOf } from './__fixtures__/helpers.js';
import { crc32c, maskCrc } from './crc32c.js';
import { writeRecordHeader } from './frame-record.js';
import type { LostRegion, TfRecord } from './tf-record.js';
import { unframeRecords, type UnframeRecordsOptions } from './unframe-records.js';

const payloads = [10, 50, 3, 100, 20].map((length, index) =>
  new Uint8Array(length).fill(index + 1).map((value, at) => value ^ at),
);
const file = framedFile(payloads);
const offsets = frameOffsets(payloads);
const frameEnd = (index: number): number => offsets[index]! + payloads[index]!.length + 16;

function chunked(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0, turn = 0; offset < bytes.length; turn++) {
    const size = sizes[turn % sizes.length]!;
    chunks.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return chunks;
}

async function unframe(
  bytes: Uint8Array,
  options: UnframeRecordsOptions = {},
  sizes: readonly number[] = [bytes.length || 1],
) {
  const stage = unframeRecords({ file: 't.tfrecord', ...options });
  const records = await collect(streamOf(chunked(bytes, sizes)).pipeThrough(stage));
  return { records, report: reportOf(stage)! };
}

async function failure(bytes: Uint8Array, options: UnframeRecordsOptions = {}): Promise<TfpipeError> {
  const error = await unframe(bytes, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!TfpipeError.is(error)) throw new Error(`expected a TfpipeError, got ${String(error)}`);
  return error;
}

function corrupt(mutate: (bytes: Uint8Array) => void): Uint8Array {
  const copy = file.slice();
  mutate(copy);
  return copy;
}

const lostOf = (report: StageReport): LostRegion[] => (report.details as { lost: LostRegion[] }).lost;
const payloadsOf = (records: readonly TfRecord[]): string[] => records.map((record) => hex(record.data));

describe('unframeRecords', () => {
  it('yields every record with its file, index and byte offset, also as its position', async () => {
    const { records, report } = await unframe(file);
    expect(payloadsOf(records)).toEqual(payloads.map(hex));
    expect(records.map((record) => record.byteOffset)).toEqual(offsets);
    expect(records.map((record) => record.recordIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(positionOf(records[3])).toEqual({ file: 't.tfrecord', recordIndex: 3, byteOffset: offsets[3] });
    expect(report).toMatchObject({ records: 5, bytes: file.length, skipped: 0 });
  });

  it('reads an empty stream as zero records', async () => {
    expect((await unframe(new Uint8Array(0))).records).toEqual([]);
  });

  it('yields the same records whatever the chunk boundaries (1 to 7 bytes)', async () => {
    const whole = payloadsOf((await unframe(file)).records);
    for (let size = 1; size <= 7; size++) {
      expect(payloadsOf((await unframe(file, {}, [size])).records)).toEqual(whole);
    }
    expect(payloadsOf((await unframe(file, {}, [1, 7, 2, 6, 3, 5, 4])).records)).toEqual(whole);
  });

  it('yields the same records and losses for random files, corruptions and chunkings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
        fc.option(fc.nat()),
        async (items, sizes, flip) => {
          const bytes = framedFile(items);
          if (flip !== null && bytes.length > 0) bytes[flip % bytes.length]! ^= 0x40;
          const whole = await unframe(bytes, { onError: 'skip' });
          const pieces = await unframe(bytes, { onError: 'skip' }, sizes);
          expect(payloadsOf(pieces.records)).toEqual(payloadsOf(whole.records));
          expect(lostOf(pieces.report)).toEqual(lostOf(whole.report));
          if (flip === null) expect(payloadsOf(whole.records)).toEqual(items.map(hex));
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  describe("rejects each corruption class with TensorFlow's words and the record's first byte", () => {
    const cases: { name: string; bytes: Uint8Array; code: string; message: string }[] = [
      {
        name: 'a bit flipped in the length CRC',
        bytes: corrupt((bytes) => (bytes[offsets[2]! + 9]! ^= 0x01)),
        code: 'RECORD_CRC',
        message: `corrupted record at byte ${offsets[2]} (record 2) of t.tfrecord: length CRC mismatch`,
      },
      {
        name: 'a bit flipped in the length',
        bytes: corrupt((bytes) => (bytes[offsets[2]!]! ^= 0x04)),
        code: 'RECORD_CRC',
        message: `corrupted record at byte ${offsets[2]} (record 2) of t.tfrecord: length CRC mismatch`,
      },
      {
        name: 'a bit flipped in the data',
        bytes: corrupt((bytes) => (bytes[offsets[2]! + 13]! ^= 0x80)),
        code: 'RECORD_CRC',
        message: `corrupted record at byte ${offsets[2]} (record 2) of t.tfrecord: data CRC mismatch`,
      },
      {
        name: 'a bit flipped in the data CRC',
        bytes: corrupt((bytes) => (bytes[frameEnd(2) - 2]! ^= 0x10)),
        code: 'RECORD_CRC',
        message: `corrupted record at byte ${offsets[2]} (record 2) of t.tfrecord: data CRC mismatch`,
      },
      {
        name: 'a truncated header',
        bytes: file.slice(0, offsets[4]! + 5),
        code: 'RECORD_TRUNCATED',
        message: `truncated record at byte ${offsets[4]} (record 4) of t.tfrecord: the header needs 12 bytes, the stream ends after 5`,
      },
      {
        name: 'truncated data',
        bytes: file.slice(0, offsets[4]! + 15),
        code: 'RECORD_TRUNCATED',
        message: `truncated record at byte ${offsets[4]} (record 4) of t.tfrecord: the frame needs 36 bytes, the stream ends after 15`,
      },
      {
        name: 'trailing garbage',
        bytes: Uint8Array.from([...file, ...new TextEncoder().encode('not a tfrecord frame')]),
        code: 'RECORD_CRC',
        message: `corrupted record at byte ${file.length} (record 5) of t.tfrecord: length CRC mismatch`,
      },
    ];
    for (const { name, bytes, code, message } of cases) {
      it(name, async () => {
        const error = await failure(bytes);
        expect(error.code).toBe(code);
        expect(error.message).toBe(message);
        expect(error.stage).toBe('unframeRecords');
        expect(error.fatal).toBe(false);
      });
    }
  });

  describe("recovers under onError: 'skip' and reports exactly what was lost", () => {
    const survivors = (lostIndex: number): string[] =>
      payloads.filter((_, index) => index !== lostIndex).map(hex);

    it.each([
      ['a bit flipped in the length CRC', offsets[2]! + 9, 'length CRC mismatch', undefined],
      ['a bit flipped in the length', offsets[2]! + 1, 'length CRC mismatch', undefined],
      ['a bit flipped in the data', offsets[2]! + 14, 'data CRC mismatch', 1],
      ['a bit flipped in the data CRC', frameEnd(2) - 1, 'data CRC mismatch', 1],
    ])('%s', async (_name, at, reason, records) => {
      const skipped: TfpipeError[] = [];
      const { records: read, report } = await unframe(
        corrupt((bytes) => (bytes[at]! ^= 0x08)),
        { onError: 'skip', onSkip: (error) => skipped.push(error) },
      );
      expect(payloadsOf(read)).toEqual(survivors(2));
      expect(read.map((record) => record.recordIndex)).toEqual([0, 1, 3, 4]);
      expect(read.map((record) => record.byteOffset)).toEqual([
        offsets[0],
        offsets[1],
        offsets[3],
        offsets[4],
      ]);
      expect(skipped.map((error) => error.position.byteOffset)).toEqual([offsets[2]]);
      expect(report.skipped).toBe(1);
      expect(lostOf(report)).toEqual([
        {
          file: 't.tfrecord',
          start: offsets[2],
          end: offsets[3],
          bytes: offsets[3]! - offsets[2]!,
          code: 'RECORD_CRC',
          reason,
          records,
        },
      ]);
      expect((report.details as { lostBytes: number }).lostBytes).toBe(offsets[3]! - offsets[2]!);
    });

    it('a corrupted last record loses exactly that frame', async () => {
      const { records, report } = await unframe(
        corrupt((bytes) => (bytes[file.length - 1]! ^= 1)),
        { onError: 'skip' },
      );
      expect(payloadsOf(records)).toEqual(survivors(4));
      expect(lostOf(report)).toMatchObject([{ start: offsets[4], end: file.length, records: 1 }]);
    });

    it('truncated header and truncated data lose the tail only', async () => {
      for (const cut of [offsets[4]! + 5, offsets[4]! + 15]) {
        const { records, report } = await unframe(file.slice(0, cut), { onError: 'skip' });
        expect(payloadsOf(records)).toEqual(survivors(4));
        expect(lostOf(report)).toMatchObject([{ start: offsets[4], end: cut, code: 'RECORD_TRUNCATED' }]);
      }
    });

    it('trailing garbage is lost and every record kept', async () => {
      const garbage = new TextEncoder().encode('not a tfrecord frame');
      const { records, report } = await unframe(Uint8Array.from([...file, ...garbage]), { onError: 'skip' });
      expect(payloadsOf(records)).toEqual(payloads.map(hex));
      expect(lostOf(report)).toMatchObject([
        { start: file.length, end: file.length + garbage.length, bytes: garbage.length },
      ]);
    });

    it('garbage between records is scanned past to the next frame that verifies', async () => {
      const garbage = new Uint8Array(1000).map((_, index) => (index * 151) & 0xff);
      const bytes = Uint8Array.from([
        ...file.subarray(0, offsets[3]),
        ...garbage,
        ...file.subarray(offsets[3]),
      ]);
      const { records, report } = await unframe(bytes, { onError: 'skip' }, [3]);
      expect(payloadsOf(records)).toEqual(payloads.map(hex));
      expect(lostOf(report)).toMatchObject([
        { start: offsets[3], end: offsets[3]! + 1000, records: undefined },
      ]);
    });
  });

  it('checks the length CRC before it trusts a huge length, and bounds lengths by maxRecordBytes', async () => {
    const header = new Uint8Array(12);
    writeRecordHeader(header, 0, 2 ** 40);
    const error = await failure(Uint8Array.from([...header, 1, 2, 3]));
    expect(error.code).toBe('RECORD_TOO_LARGE');
    expect(error.message).toBe(
      'record too large at byte 0 (record 0) of t.tfrecord: length 1099511627776 bytes exceeds maxRecordBytes 268435456',
    );
    // Beyond 2^53 the message still names the exact length a forged header claims.
    const forged = new Uint8Array(12);
    const view = new DataView(forged.buffer);
    view.setBigUint64(0, 0xffff_ffff_ffff_fff0n, true);
    view.setUint32(8, maskCrc(crc32c(forged.subarray(0, 8))), true);
    expect((await failure(forged)).message).toContain('length 18446744073709551600 bytes exceeds');
    const tooLong = await failure(file, { maxRecordBytes: 60 });
    expect(tooLong.code).toBe('RECORD_TOO_LARGE');
    expect(tooLong.position).toMatchObject({ byteOffset: offsets[3], recordIndex: 3 });
  });

  it("skips a record over maxRecordBytes without buffering it, under onError: 'skip'", async () => {
    const { records, report } = await unframe(file, { onError: 'skip', maxRecordBytes: 60 }, [7]);
    expect(payloadsOf(records)).toEqual(payloads.filter((_, index) => index !== 3).map(hex));
    expect(lostOf(report)).toMatchObject([
      { start: offsets[3], end: offsets[4], code: 'RECORD_TOO_LARGE', records: 1 },
    ]);
  });

  it('refuses a bad maxRecordBytes or onError at once', () => {
    expect(() => unframeRecords({ maxRecordBytes: -1 })).toThrow(/maxRecordBytes must be an integer/);
    expect(() => unframeRecords({ onError: 'ignore' as never })).toThrow(/onError must be/);
  });
});

it('decodes generated payloads of many sizes', async () => {
  const many = randomPayloads(200, 3000, 9);
  const { records } = await unframe(framedFile(many), {}, [4096]);
  expect(payloadsOf(records)).toEqual(many.map(hex));
});
