import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateRawSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { reportOf } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import { framedFile, hex, randomPayloads, tempDir } from './__fixtures__/helpers.js';
import { countRecords, verifyTfrecord } from './read-examples.js';
import type { LostRegion, TfRecord } from './tf-record.js';
import { tfrecordSource } from './tfrecord-source.js';

/** Every record the source gives before it ends or fails, and the failure. */
async function readUntilFailure(path: string): Promise<{ records: TfRecord[]; error: unknown }> {
  const reader = tfrecordSource({ paths: path }).getReader();
  const records: TfRecord[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { records, error: undefined };
      records.push(value);
    }
  } catch (error) {
    return { records, error };
  }
}

async function fileOf(bytes: Uint8Array, name: string): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, bytes);
  return path;
}

const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

describe('gzip and zlib read as TensorFlow reads them, nothing before damage lost', () => {
  for (const count of [20_000, 2]) {
    it(`keeps all ${count} records of a gzip file with 16 bytes of trailing junk, and reports exactly 16`, async () => {
      const payloads = randomPayloads(count, 40, count);
      const gz = gzipSync(framedFile(payloads));
      const path = await fileOf(concat(gz, new TextEncoder().encode('0123456789abcdef')), 'junk.tfrecord.gz');
      // Under onError 'fail' too: every record comes out first, then the error, as in TensorFlow.
      const { records, error } = await readUntilFailure(path);
      expect(records.map((record) => hex(record.data))).toEqual(payloads.map(hex));
      expect(error).toMatchObject({ code: 'DECOMPRESS', position: { file: path, byteOffset: gz.length } });
      expect((error as Error).message).toBe(
        `cannot decompress gzip data at byte ${gz.length} of ${path}: trailing data after the end of the gzip stream ` +
          `(16 bytes from there to the end lost; ${framedFile(payloads).length} bytes decompressed before, all handed on)`,
      );
      const verdict = await verifyTfrecord(path);
      expect(verdict).toMatchObject({ ok: false, records: count, problems: 1, lostBytes: 16 });
      expect(verdict.lost).toEqual([
        expect.objectContaining({ start: gz.length, end: gz.length + 16, bytes: 16, code: 'DECOMPRESS' }),
      ]);
      const source = tfrecordSource({ paths: path, onError: 'skip' });
      const kept: TfRecord[] = [];
      for await (const record of source) kept.push(record);
      expect(kept).toHaveLength(count);
      expect(reportOf(source)?.details).toMatchObject({ lostBytes: 16, lostRegions: 1 });
    });
  }

  it('reads a gzip file of several members as one stream (TensorFlow resets after each member)', async () => {
    const payloads = randomPayloads(3000, 100, 5);
    const parts = [payloads.slice(0, 1000), payloads.slice(1000, 1001), payloads.slice(1001)];
    const path = await fileOf(
      concat(...parts.map((part) => gzipSync(framedFile(part)))),
      'multi.tfrecord.gz',
    );
    const { records, error } = await readUntilFailure(path);
    expect(error).toBeUndefined();
    expect(records.map((record) => hex(record.data))).toEqual(payloads.map(hex));
    // Offsets run on across members: positions are in the one decompressed stream.
    expect(records[1000]?.byteOffset).toBe(framedFile(payloads.slice(0, 1000)).length);
    expect(await verifyTfrecord(path)).toMatchObject({ ok: true, records: 3000, lostBytes: 0 });
  });

  it('reports zero padding after a gzip stream (node:zlib ignored it silently), every record kept', async () => {
    const payloads = randomPayloads(500, 100, 6);
    const gz = gzipSync(framedFile(payloads));
    const path = await fileOf(concat(gz, new Uint8Array(100)), 'padded.tfrecord.gz');
    const verdict = await verifyTfrecord(path);
    expect(verdict).toMatchObject({ ok: false, records: 500, lostBytes: 100 });
    expect(verdict.lost[0]).toMatchObject({ start: gz.length, end: gz.length + 100 });
  });

  it('reports data after a zlib stream (TensorFlow ignores it) with every record kept', async () => {
    const payloads = randomPayloads(500, 100, 7);
    const zz = deflateSync(framedFile(payloads));
    const path = await fileOf(concat(zz, new TextEncoder().encode('junkjunk')), 'junk.tfrecord.zz');
    await expect(countRecords(path)).rejects.toMatchObject({
      code: 'DECOMPRESS',
      position: { byteOffset: zz.length },
    });
    const verdict = await verifyTfrecord(path);
    expect(verdict).toMatchObject({ ok: false, records: 500, lostBytes: 8 });
    expect(await verifyTfrecord(await fileOf(zz, 'clean.tfrecord.zz'))).toMatchObject({ ok: true });
  });

  it('reads a gzip member whose header has an extra field, a name, a comment and a header CRC', async () => {
    const payloads = randomPayloads(200, 100, 8);
    const raw = framedFile(payloads);
    const fields = concat(
      Uint8Array.of(0x1f, 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, 3),
      Uint8Array.of(4, 0, 0x41, 0x42, 0, 0), // XLEN 4: subfield "AB" with no data
      new TextEncoder().encode('data.tfrecord\0a comment\0'),
    );
    const headerCrc = Uint8Array.of(crc32(fields) & 0xff, (crc32(fields) >> 8) & 0xff);
    const trailer = new Uint8Array(8);
    new DataView(trailer.buffer).setUint32(0, crc32(raw), true);
    new DataView(trailer.buffer).setUint32(4, raw.length, true);
    const member = concat(fields, headerCrc, deflateRawSync(raw), trailer);
    // zlib itself (what TensorFlow uses) takes the member: the fixture is a valid one.
    expect(hex(gunzipSync(member))).toBe(hex(raw));
    const { records, error } = await readUntilFailure(await fileOf(member, 'named.tfrecord.gz'));
    expect(error).toBeUndefined();
    expect(records.map((record) => hex(record.data))).toEqual(payloads.map(hex));
    // A wrong header CRC fails as zlib fails it, before any record.
    const damaged = concat(
      fields,
      Uint8Array.of(headerCrc[0]! ^ 1, headerCrc[1]!),
      deflateRawSync(raw),
      trailer,
    );
    const broken = await readUntilFailure(await fileOf(damaged, 'bad-header.tfrecord.gz'));
    expect(broken.records).toHaveLength(0);
    expect((broken.error as Error).message).toContain('header CRC mismatch in the gzip header');
  });

  it('a damaged gzip trailer fails after every record, naming the trailer offset', async () => {
    const payloads = randomPayloads(1000, 100, 9);
    const gz = new Uint8Array(gzipSync(framedFile(payloads)));
    gz[gz.length - 4]! ^= 1; // ISIZE
    const path = await fileOf(gz, 'trailer.tfrecord.gz');
    const { records, error } = await readUntilFailure(path);
    expect(records).toHaveLength(1000);
    expect(error).toMatchObject({ code: 'DECOMPRESS', position: { byteOffset: gz.length - 8 } });
    expect((error as Error).message).toContain('length mismatch in the gzip trailer');
    expect((await rejectionOf(countRecords(path))).code).toBe('DECOMPRESS');
    const lost: readonly LostRegion[] = (await verifyTfrecord(path)).lost;
    expect(lost).toMatchObject([{ start: gz.length - 8, end: gz.length }]);
  });
});
