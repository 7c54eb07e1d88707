import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { describe, expect, it } from 'vitest';
import { frameOffsets, framedFile } from './__fixtures__/helpers.js';
import { crc32c, maskCrc } from './crc32c.js';
import type { RecordPlace } from './payload-check.js';
import type { TfRecord } from './tf-record.js';
import { RecordUnframer } from './record-unframer.js';
import { fastCrc32cRange } from './native-crc32c.js';

const payloads = [10, 700, 3, 0, 20].map((length, index) => new Uint8Array(length).fill(index + 7));
const offsets = frameOffsets(payloads);

function seen(bytes: Uint8Array, verifyData: boolean | undefined, chunk: number, native = false) {
  const places: RecordPlace[] = [];
  const datas: number[][] = [];
  const unframer = new RecordUnframer({
    file: 'f.tfrecord',
    stage: 'test',
    maxRecordBytes: 1 << 20,
    policy: new RecordErrorPolicy({ onError: 'fail' }),
    crc: crc32c,
    emit: false,
    ...(verifyData === undefined ? {} : { verifyData }),
    ...(native ? { crcRange: fastCrc32cRange } : {}),
    check(data, place) {
      places.push(place);
      datas.push([...data]);
      return true;
    },
  });
  for (let at = 0; at < bytes.length; at += chunk) unframer.push(bytes.subarray(at, at + chunk), []);
  unframer.end([]);
  return { places, datas, records: unframer.records };
}

describe('RecordUnframer verifyData: false', () => {
  it('hands each payload over with its stored data CRC, unchecked, in any chunking', () => {
    const file = framedFile(payloads);
    for (const chunk of [1, 7, 64, file.length]) {
      const { places, datas } = seen(file, false, chunk);
      expect(datas).toEqual(payloads.map((payload) => [...payload]));
      expect(places).toEqual(
        payloads.map((payload, index) => ({
          file: 'f.tfrecord',
          recordIndex: index,
          byteOffset: offsets[index],
          dataCrc: maskCrc(crc32c(payload)),
        })),
      );
    }
  });

  it('leaves a damaged payload to the caller, but still checks every length CRC', () => {
    const file = framedFile(payloads);
    const damaged = file.slice();
    damaged[offsets[1]! + 12 + 5]! ^= 1;
    expect(() => seen(damaged, undefined, 64)).toThrow(
      expect.objectContaining({ code: 'RECORD_CRC', reason: 'data CRC mismatch' }),
    );
    const { places } = seen(damaged, false, 64);
    expect(places).toHaveLength(payloads.length);
    expect(places[1]!.dataCrc).toBe(maskCrc(crc32c(payloads[1]!)));
    const badLength = file.slice();
    badLength[offsets[2]! + 9]! ^= 1;
    expect(() => seen(badLength, false, 64)).toThrow(
      expect.objectContaining({
        code: 'RECORD_CRC',
        reason: 'length CRC mismatch',
        position: expect.objectContaining({ recordIndex: 2 }),
      }),
    );
  });

  it('crcRange (the native CRC over large records) verifies and rejects as the JS CRC does', () => {
    const file = framedFile(payloads);
    for (const chunk of [7, file.length])
      expect(seen(file, undefined, chunk, true).datas).toEqual(payloads.map((payload) => [...payload]));
    const damaged = file.slice();
    damaged[offsets[1]! + 12 + 600]! ^= 0x80; // inside the 700-byte payload, past the native threshold
    expect(() => seen(damaged, undefined, 64, true)).toThrow(
      expect.objectContaining({
        code: 'RECORD_CRC',
        reason: 'data CRC mismatch',
        position: expect.objectContaining({ recordIndex: 1 }),
      }),
    );
  });
});

/** What `take` saw, as `seen` reports `check`'s: each place (dataCrc included when given) and payload. */
function taken(bytes: Uint8Array, verifyData: boolean, chunk: number, onError: 'fail' | 'skip' = 'fail') {
  const places: RecordPlace[] = [];
  const datas: number[][] = [];
  const policy = new RecordErrorPolicy({ onError });
  const unframer = new RecordUnframer({
    file: 'f.tfrecord',
    stage: 'test',
    maxRecordBytes: 1 << 20,
    policy,
    crc: crc32c,
    verifyData,
    take(buffer, start, end, recordIndex, byteOffset, dataCrc) {
      places.push({
        file: 'f.tfrecord',
        recordIndex,
        byteOffset,
        ...(verifyData ? { zero: dataCrc } : { dataCrc }),
      });
      datas.push([...buffer.subarray(start, end)]);
    },
  });
  const out: TfRecord[] = [];
  for (let at = 0; at < bytes.length; at += chunk) unframer.push(bytes.subarray(at, at + chunk), out);
  unframer.end(out);
  return { places, datas, records: unframer.records, out, skipped: policy.skipped };
}

describe('RecordUnframer take', () => {
  it('gives each payload as a range of the read buffer with the place check gets, in any chunking', () => {
    const file = framedFile(payloads);
    for (const verifyData of [true, false])
      for (const chunk of [1, 7, 64, file.length]) {
        const got = taken(file, verifyData, chunk);
        const checked = seen(file, verifyData, chunk);
        expect(got.datas).toEqual(checked.datas);
        expect(got.places).toEqual(
          checked.places.map((place) => (verifyData ? { ...place, zero: 0 } : place)),
        );
        expect([got.records, got.out]).toEqual([payloads.length, []]);
      }
  });

  it('is not called for a record whose CRC fails: the error, or under skip the records around it', () => {
    const file = framedFile(payloads);
    const damaged = file.slice();
    damaged[offsets[1]! + 12 + 5]! ^= 1;
    expect(() => taken(damaged, true, 64)).toThrow(
      expect.objectContaining({
        code: 'RECORD_CRC',
        reason: 'data CRC mismatch',
        position: expect.objectContaining({ recordIndex: 1, byteOffset: offsets[1] }),
      }),
    );
    const skipped = taken(damaged, true, 64, 'skip');
    expect(skipped.places.map((place) => place.recordIndex)).toEqual([0, 2, 3, 4]);
    expect(skipped.datas).toEqual([0, 2, 3, 4].map((index) => [...payloads[index]!]));
    expect(skipped.skipped).toBe(1);
  });
});
