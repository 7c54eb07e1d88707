// tfrecordDataset over real files written by sink-tfrecord's writer: plain and gzip, many files,
// TensorFlow's numParallelReads order, and the fused parse.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { describe, expect, it } from 'vitest';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { fixedLen, varLen } from '../spec/feature-spec.js';
import { idOf, ids, range, temporaryFolder, writeRecords } from '../testing/write-records.js';

describe('tfrecordDataset', () => {
  it('reads files in order, globs sorted, with positions on every record', async () => {
    const folder = await temporaryFolder();
    await writeRecords(folder, 'b.tfrecord', range(100, 105));
    await writeRecords(folder, 'a.tfrecord', range(0, 3));
    const dataset = tfrecordDataset(join(folder, '*.tfrecord'));
    expect(await ids(dataset)).toEqual([0, 1, 2, 100, 101, 102, 103, 104]);
    const records: TfRecord[] = [];
    for await (const record of dataset) records.push(record);
    expect(records[3]).toMatchObject({ file: join(folder, 'b.tfrecord'), recordIndex: 0, byteOffset: 0 });
    expect(records[4]!.byteOffset).toBe(16 + records[3]!.data.length);
    expect(dataset.report()).toMatchObject({ records: 16, skipped: 0 });
  });

  it('interleaves numParallelReads files record by record, refilling a finished slot (TF order)', async () => {
    const folder = await temporaryFolder();
    const a = await writeRecords(folder, 'a', range(0, 2));
    const b = await writeRecords(folder, 'b', range(10, 15));
    const c = await writeRecords(folder, 'c', range(20, 23));
    const d = await writeRecords(folder, 'd', range(30, 31));
    // interleave(cycle_length=2, block_length=1) over [a, b, c, d]: a ends after 1, its slot is
    // refilled with c when the cycle comes back to it (after b's 12), and d takes b's slot.
    expect(await ids(tfrecordDataset([a, b, c, d], { numParallelReads: 2 }))).toEqual([
      0, 10, 1, 11, 12, 20, 13, 21, 14, 22, 30,
    ]);
  });

  it('detects gzip and zlib per file; a Blob and a URL-less stream read through the web path', async () => {
    const folder = await temporaryFolder();
    const plain = await writeRecords(folder, 'p.tfrecord', range(0, 50));
    const gz = await writeRecords(folder, 'g.tfrecord.gz', range(50, 100), { compression: 'gzip' });
    const zz = await writeRecords(folder, 'z.tfrecord.zz', range(100, 120), { compression: 'zlib' });
    const blob = new Blob([gzipSync(await readFile(plain))]);
    expect(await ids(tfrecordDataset([plain, gz, zz, blob]))).toEqual([...range(0, 120), ...range(0, 50)]);
    expect(await ids(tfrecordDataset([gz], { compression: 'gzip' }))).toEqual(range(50, 100));
  });

  it('parses batches straight from the wire bytes, typed by the spec', async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'p.tfrecord', range(0, 10));
    const batches = [];
    for await (const batch of tfrecordDataset(path).parse(
      { id: fixedLen([], 'int64'), values: varLen('float32') },
      { batchSize: 4 },
    ))
      batches.push(batch);
    expect(batches.map((batch) => batch.id.shape)).toEqual([[4], [4], [2]]);
    expect(Array.from(batches[2]!.id.data)).toEqual([8n, 9n]);
    expect(Array.from(batches[0]!.values.data)).toEqual([1, 2, 2.1, 3, 3.1, 3.2].map(Math.fround));
    expect(batches[0]!.values.denseShape).toEqual([4, 3]);
  });

  it('is a ReadableStream too: pipes to a WritableStream, and each for-await is a new pass', async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'p.tfrecord', range(0, 5));
    const dataset = tfrecordDataset(path);
    const seen: number[] = [];
    await dataset.pipeTo(new WritableStream({ write: (record) => void seen.push(idOf(record)) }));
    expect(seen).toEqual(range(0, 5));
    expect(await ids(dataset)).toEqual(range(0, 5));
    expect(await ids(dataset)).toEqual(range(0, 5));
  });

  it('rejects a string in a list of web inputs only in the web entry, and bad options at once', async () => {
    const { tfrecordDataset: webDataset } = await import('./tfrecord-dataset.js');
    expect(() => webDataset(['a.tfrecord' as never])).toThrow(/@tfpipe\/dataset\/node/);
    expect(() => tfrecordDataset('x', { numParallelReads: 0 })).toThrow(/numParallelReads/);
    expect(() => tfrecordDataset('x', { compression: 'lz4' as never })).toThrow(/compression/);
    await writeFile(join(await temporaryFolder(), 'unused'), '');
  });
});
