// Hostile and damaged inputs through tfrecordDataset and its fused parse: a damaged file read beside
// good ones with numParallelReads, a length field of 2^50 bytes, a truncated last record, empty files,
// and a spec of thousands of features in records that change their key order.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bytes, example, int64 } from '@tfpipe/core';
import { frameRecord, writeRecordHeader } from '@tfpipe/sink-tfrecord/web';
import { describe, expect, it } from 'vitest';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { parseExample } from '../parse/parse-example.js';
import { field } from '../parse/tensor-test-helpers.js';
import { fixedLen } from '../spec/feature-spec.js';
import {
  drain,
  idOf,
  range,
  temporaryFolder,
  writeExamples,
  writeRecords,
} from '../testing/write-records.js';

const ID = { id: fixedLen([], 'int64') } as const;

/** The ids of each parsed batch. */
const batchIds = (batches: readonly { id: { data: BigInt64Array } }[]): number[][] =>
  batches.map((batch) => Array.from(batch.id.data, Number));

/** A non-negative integer as a protobuf varint. */
function varint(value: number): Uint8Array {
  const out: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 0x80)) out.push((value % 0x80) | 0x80);
  out.push(value);
  return Uint8Array.from(out);
}

/** The frame offsets of a file's records, from the `.idx` its writer put beside it. */
async function offsetsOf(path: string): Promise<number[]> {
  return (await readFile(`${path}.idx`, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => Number(line.split(' ')[0]));
}

describe('damaged and hostile input', () => {
  it('numParallelReads 2: the records before the damage in the interleaved order go out, then RECORD_CRC', async () => {
    const folder = await temporaryFolder();
    const good = await writeRecords(folder, 'good.tfrecord', range(0, 300));
    // ~30 KB records: the damaged file spans three 1 MiB reads and its damage lies in the third.
    const damaged = await writeExamples(folder, 'damaged.tfrecord', range(1000, 1100), (id) =>
      example({ id: int64(id), pad: bytes(new Uint8Array(30_000).fill(id & 0xff)) }),
    );
    const offsets = await offsetsOf(damaged);
    const file = await readFile(damaged);
    file[offsets[80]! + 14]! ^= 0xff; // a payload byte: the length CRC still holds
    await writeFile(damaged, file);

    const records = await drain(tfrecordDataset([good, damaged], { numParallelReads: 2 }));
    expect(records.error).toMatchObject({
      code: 'RECORD_CRC',
      reason: 'data CRC mismatch',
      position: { file: damaged, recordIndex: 80, byteOffset: offsets[80] },
    });
    const ids = records.elements.map(idOf);
    const fromDamaged = ids.filter((id) => id >= 1000).length;
    // Every record of the damaged file's reads before the one holding the damage, each after its
    // turn's record of the good file, and the good file's record whose turn came before the failure.
    expect(fromDamaged).toBeGreaterThan(30);
    expect(fromDamaged).toBeLessThan(80);
    expect(ids).toEqual([...range(0, fromDamaged).flatMap((at) => [at, 1000 + at]), fromDamaged]);

    // The fused parse of the same interleaving: its full batches, then the same error.
    const parsed = await drain(
      tfrecordDataset([good, damaged], { numParallelReads: 2 }).parse(ID, { batchSize: 4 }),
    );
    expect(parsed.error).toMatchObject({ code: 'RECORD_CRC', position: { recordIndex: 80 } });
    const full = Math.floor(ids.length / 4) * 4;
    expect(batchIds(parsed.elements).flat()).toEqual(ids.slice(0, full));
  });

  it('a length field of 2^50 bytes (its CRC valid): RECORD_TOO_LARGE at its frame, nothing allocated; skip reports the rest lost', async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'huge.tfrecord', range(0, 5));
    const good = await readFile(path);
    const header = new Uint8Array(12 + 100);
    writeRecordHeader(header, 0, 2 ** 50);
    await writeFile(path, Buffer.concat([good, header]));
    const failing = await drain(tfrecordDataset(path).parse(ID, { batchSize: 2 }));
    expect(batchIds(failing.elements)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(failing.error).toMatchObject({
      code: 'RECORD_TOO_LARGE',
      position: { file: path, recordIndex: 5, byteOffset: good.length },
    });
    expect(failing.error?.reason).toContain(String(2 ** 50));
    const skipping = tfrecordDataset(path, { onError: 'skip' });
    const skipped = await drain(skipping.parse(ID, { batchSize: 2 }));
    expect(skipped.error).toBeUndefined();
    expect(batchIds(skipped.elements)).toEqual([[0, 1], [2, 3], [4]]);
    expect(skipping.report()).toMatchObject({
      skipped: 1,
      details: { lostRegions: 1, lostBytes: header.length },
    });
    // A record longer than maxRecordBytes is refused the same way.
    await expect(drain(tfrecordDataset(path, { maxRecordBytes: 4 }).parse(ID))).resolves.toMatchObject({
      elements: [],
      error: { code: 'RECORD_TOO_LARGE', position: { recordIndex: 0, byteOffset: 0 } },
    });
  });

  it('a truncated last record: the full batches, then RECORD_TRUNCATED at its frame; empty files read as nothing', async () => {
    const folder = await temporaryFolder();
    const path = await writeRecords(folder, 'cut.tfrecord', range(0, 7), { index: true });
    const offsets = await offsetsOf(path);
    const whole = await readFile(path);
    const empty = join(folder, 'empty.tfrecord');
    await writeFile(empty, new Uint8Array(0));
    for (const cut of [1, 5, 13, whole.length - offsets[6]! - 1]) {
      await writeFile(path, whole.subarray(0, whole.length - cut));
      const outcome = await drain(tfrecordDataset([empty, path, empty]).parse(ID, { batchSize: 3 }));
      expect(batchIds(outcome.elements)).toEqual([
        [0, 1, 2],
        [3, 4, 5],
      ]);
      expect(outcome.error).toMatchObject({
        code: 'RECORD_TRUNCATED',
        position: { file: path, recordIndex: 6, byteOffset: offsets[6] },
      });
    }
    expect((await drain(tfrecordDataset([empty, empty]).parse(ID, { batchSize: 3 }))).elements).toEqual([]);
  });

  it('a spec of 3,000 features over records that change their key order', async () => {
    const folder = await temporaryFolder();
    const names = range(0, 3000).map((at) => `feature_${String(at).padStart(4, '0')}`);
    const encoder = new TextEncoder();
    // Built by hand: core's writer sorts keys, these records list them forwards, then backwards.
    const records = range(0, 40).map((id) => {
      const order = id % 2 === 0 ? range(0, 3000) : range(0, 3000).reverse();
      const entries = order.map((column) =>
        field(
          0x0a,
          Buffer.concat([
            field(0x0a, encoder.encode(names[column])),
            field(0x12, field(0x1a, field(0x0a, varint(id * 10_000 + column)))),
          ]),
        ),
      );
      return frameRecord(field(0x0a, Buffer.concat(entries)));
    });
    const path = join(folder, 'wide.tfrecord');
    await writeFile(path, Buffer.concat(records));
    const spec = Object.fromEntries(names.map((name) => [name, fixedLen([], 'int64')]));
    let rows = 0;
    const wrong: string[] = [];
    for await (const batch of tfrecordDataset(path).parse(spec, { batchSize: 16 })) {
      const size = batch[names[0]!]!.shape[0]!;
      names.forEach((name, column) => {
        const values = Array.from(batch[name]!.data, Number);
        const expected = range(rows, rows + size).map((row) => row * 10_000 + column);
        if (values.join() !== expected.join()) wrong.push(name);
      });
      rows += size;
    }
    expect(wrong).toEqual([]);
    expect(rows).toBe(40);
  });

  it('a length varint of 2^64 - 1 inside an Example: PROTO_DECODE with its exact value and byte', () => {
    const record = Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(() => parseExample(ID).parse([record], { file: 'f', firstRecordIndex: 7 })).toThrow(
      expect.objectContaining({
        code: 'PROTO_DECODE',
        message: expect.stringContaining('length 18446744073709551615 runs past the end of its message'),
        position: expect.objectContaining({ file: 'f', recordIndex: 7 }),
      }),
    );
  });
});
