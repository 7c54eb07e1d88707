// The worker's reading pass in Node (the same web-standard code runs there): the index, the rows read
// back by offset, and a compressed file's records past the payload budget found by decompressing again.
import { describe, expect, it } from 'vitest';
import { byteSource } from './byte-source.js';
import { OpenFile } from './open-file.js';
import { gzipped, tabularFile, tabularRecord } from './testing/tfrecord-files.js';
import type { WorkerResponse } from './worker-protocol.js';

async function scanned(bytes: Uint8Array, payloadCacheBytes?: number): Promise<[OpenFile, WorkerResponse[]]> {
  const file = new File([bytes as Uint8Array<ArrayBuffer>], 'test.tfrecord');
  const opened = new OpenFile(byteSource({ kind: 'file', file }), payloadCacheBytes);
  const messages: WorkerResponse[] = [];
  await opened.scan((message) => messages.push(message));
  return [opened, messages];
}

describe('OpenFile', () => {
  it('indexes every record of an uncompressed file and reads them back by offset', async () => {
    const file = tabularFile(50);
    const [opened, messages] = await scanned(file.bytes);
    expect(messages.at(-1)).toMatchObject({ type: 'done', records: 50, problemCount: 0, lost: [] });
    expect(messages[0]).toEqual({ type: 'compression', compression: 'none' });
    const rows = await opened.rows(10, 3);
    expect(rows.map((row) => [row.recordIndex, row.byteOffset, row.length])).toEqual(
      [10, 11, 12].map((index) => [index, file.offsets[index], tabularRecord(index).length]),
    );
    expect(rows[0]!.summary).toContain('id=10');
  });

  it('finds a gzip file’s records past the payload budget by decompressing again', async () => {
    const [opened, messages] = await scanned(gzipped(tabularFile(30).bytes), 3 * tabularRecord(0).length);
    expect(messages[0]).toEqual({ type: 'compression', compression: 'gzip' });
    expect(messages.at(-1)).toMatchObject({ type: 'done', records: 30 });
    const kept = await opened.record(1);
    const decompressedAgain = await opened.record(27);
    expect(kept?.features.find((feature) => feature.key === 'id')?.values).toEqual(['1']);
    expect(decompressedAgain?.features.find((feature) => feature.key === 'id')?.values).toEqual(['27']);
    expect((await opened.rows(25, 5)).map((row) => row.summary.includes(`id=${row.row}`))).toEqual(
      Array(5).fill(true),
    );
  });

  it('profiles, filters and exports a gzip file past the payload budget by decompressing it again', async () => {
    const file = tabularFile(40);
    const [opened] = await scanned(gzipped(file.bytes), 3 * tabularRecord(0).length);
    const post = (): void => undefined;
    const profile = await opened.profile(post);
    expect(profile.records).toBe(40);
    const id = profile.features.find((feature) => feature.name === 'id');
    expect(id?.values?.numeric).toMatchObject({ min: '0', max: '39', mean: 19.5 });
    expect(await opened.select({ kind: 'filter', expression: 'id >= 30 and id < 35' }, post)).toEqual({
      count: 5,
      of: 40,
      partial: false,
    });
    expect((await opened.rows(0, 10)).map((row) => row.recordIndex)).toEqual([30, 31, 32, 33, 34]);
    const { blob, records } = await opened.exportShown(post);
    expect(records).toBe(5);
    const frames = file.bytes.subarray(file.offsets[30], file.offsets[35]);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(frames);
    expect(await opened.select({ kind: 'every', step: 13, start: 0 }, post)).toMatchObject({ count: 4 });
    expect((await opened.rows(0, 10)).map((row) => row.recordIndex)).toEqual([0, 13, 26, 39]);
    await expect(opened.select({ kind: 'filter', expression: 'id >' }, post)).rejects.toThrow(/column 5/);
  });

  it('exports every k-th record, and reads rows apart, with one read per 8 MiB, not one per record', async () => {
    const file = tabularFile(3000);
    const reads: [number, number][] = [];
    const source = {
      name: 'counted.tfrecord',
      size: file.bytes.length,
      read: (start: number, end: number): Promise<Uint8Array> => {
        reads.push([start, end]);
        return Promise.resolve(file.bytes.slice(start, end));
      },
    };
    const opened = new OpenFile(source);
    await opened.scan(() => undefined);
    const post = (): void => undefined;
    expect(await opened.select({ kind: 'every', step: 7, start: 3 }, post)).toMatchObject({ count: 429 });
    reads.length = 0;
    const { blob, records } = await opened.exportShown(post);
    expect(records).toBe(429);
    const wanted = Array.from({ length: 429 }, (_, index) => 3 + 7 * index);
    const expected = wanted.map((index) => file.bytes.subarray(file.offsets[index], file.offsets[index + 1]));
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(
      new Uint8Array(expected.flatMap((frame) => [...frame])),
    );
    expect(reads).toEqual([[file.offsets[3], file.bytes.length]]);
    reads.length = 0;
    const rows = await opened.rows(0, 429);
    expect(rows.map((row) => row.recordIndex)).toEqual(wanted);
    expect(rows[428]!.summary).toContain('id=2999');
    expect(reads).toHaveLength(1);
  });
});
