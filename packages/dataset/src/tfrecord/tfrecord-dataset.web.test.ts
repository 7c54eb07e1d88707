// The web entry with web-standard inputs only (runs in Node and in the edge runtime): Blobs framed
// with the sink's web framing, gzip through CompressionStream, and a stream read once.
import { encodeExample, example, int64 } from '@tfpipe/core';
import { frameRecord } from '@tfpipe/sink-tfrecord/web';
import { describe, expect, it } from 'vitest';
import { fixedLen } from '../spec/feature-spec.js';
import { tfrecordDataset } from './tfrecord-dataset.js';

const framed = (ids: readonly number[]): Uint8Array[] =>
  ids.map((id) => frameRecord(encodeExample(example({ id: int64(id) }))));

async function gzip(parts: readonly Uint8Array[]): Promise<Blob> {
  const stream = new Blob(parts as unknown as BlobPart[]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).blob();
}

describe('tfrecordDataset (web entry)', () => {
  it('reads Blobs, gzip detected, and parses them', async () => {
    const plain = new Blob(framed([1, 2, 3]) as BlobPart[]);
    const compressed = await gzip(framed([4, 5]));
    const ids: bigint[] = [];
    for await (const batch of tfrecordDataset([plain, compressed], { numParallelReads: 2 }).parse(
      { id: fixedLen([], 'int64') },
      { batchSize: 2 },
    ))
      ids.push(...batch.id.data);
    expect(ids).toEqual([1n, 4n, 2n, 5n, 3n]);
  });

  it("a damaged Blob under onError: 'skip' reports the lost range", async () => {
    const frames = framed([1, 2, 3]);
    const damaged = frames[1]!;
    damaged[14] = damaged[14]! ^ 0xff;
    const dataset = tfrecordDataset(new Blob(frames as BlobPart[]), { onError: 'skip' });
    const seen: number[] = [];
    for await (const record of dataset) seen.push(record.recordIndex);
    expect(seen).toEqual([0, 2]);
    const start = frames[0]!.length;
    expect(dataset.report().details).toMatchObject({
      lostRegions: 1,
      lost: [{ file: 'blob 0', start, end: start + frames[1]!.length, code: 'RECORD_CRC', records: 1 }],
    });
  });

  it('a ReadableStream input reads once; a second pass fails with INVALID_OPTION', async () => {
    const dataset = tfrecordDataset(new Blob(framed([7]) as BlobPart[]).stream());
    const first: number[] = [];
    for await (const record of dataset) first.push(record.recordIndex);
    expect(first).toEqual([0]);
    await expect(
      (async () => {
        for await (const record of dataset) void record;
      })(),
    ).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
