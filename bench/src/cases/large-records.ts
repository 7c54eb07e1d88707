import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { random, removing, scaled, timeRuns, type BenchCase, type SideContext } from '../harness.js';

const RECORDS = 2000;
const RECORD_BYTES = 50 * 1024;
/** Records per chunk on the batched side: the sink's batch contract (an array chunk). */
const BATCH = 32;

function payloads(context: SideContext): Uint8Array[] {
  const next = random(7);
  const count = scaled(RECORDS, context.scale, 10);
  return Array.from({ length: count }, () => {
    const bytes = new Uint8Array(RECORD_BYTES);
    for (let index = 0; index < bytes.length; index += 4) bytes[index] = Math.floor(next() * 256);
    return bytes;
  });
}

/** Frames and writes the payloads through `tfrecordSink`, `perChunk` records per stream chunk (1: no batches). */
function writeFramed(context: SideContext, perChunk: number, note: string) {
  const records = payloads(context);
  const path = join(context.workDirectory, `large-${perChunk}.tfrecord`);
  const megabytes = (records.length * RECORD_BYTES) / 1e6;
  return timeRuns(
    context.repeats,
    megabytes,
    async () => {
      const sink = tfrecordSink({ path, fsync: false }).getWriter();
      for (let start = 0; start < records.length; start += perChunk) {
        await sink.ready;
        void sink.write(perChunk === 1 ? records[start]! : records.slice(start, start + perChunk));
      }
      await sink.close();
    },
    note,
    removing(path),
  );
}

/** Case b: 2,000 records of 50 KB, framed (CRC-32C) and written, against a raw write of the payloads. */
export const largeRecordsCase: BenchCase = {
  name: 'large',
  title: 'b. 2,000 × 50 KB records: framing + write',
  unit: 'MB/s',
  prepare: () => Promise.resolve([`${RECORDS} × ${RECORD_BYTES} bytes, generated in each process`]),
  sides: {
    batched: {
      label: 'tfpipe tfrecordSink (batched)',
      run: (context) =>
        writeFramed(context, BATCH, `batches of ${BATCH} records (an array chunk), fsync off`),
    },
    ours: {
      label: 'tfpipe tfrecordSink',
      run: (context) => writeFramed(context, 1, 'one record per chunk, fsync off'),
    },
    raw: {
      label: 'fs.writeFile (payloads)',
      async run(context) {
        const records = payloads(context);
        const joined = new Uint8Array(records.length * RECORD_BYTES);
        records.forEach((record, index) => joined.set(record, index * RECORD_BYTES));
        const path = join(context.workDirectory, 'raw.bin');
        return timeRuns(
          context.repeats,
          joined.length / 1e6,
          () => writeFile(path, joined),
          undefined,
          removing(path),
        );
      },
    },
  },
  comparisons: [
    { ours: 'batched', baseline: 'raw', target: 0.6 },
    { ours: 'ours', baseline: 'raw' },
  ],
};
