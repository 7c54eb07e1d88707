import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { countRecords, verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { frameRecord } from '@tfpipe/sink-tfrecord/internal';
import { scaled, timeRuns, type BenchCase, type SideContext } from '../harness.js';

const RECORDS = 1_000_000;
const FILE = 'tiny.tfrecord';
/** An empty Example (`Features {}`): 2 bytes, 18 with framing. */
const PAYLOAD = Uint8Array.of(0x0a, 0x00);

function recordsOf(context: SideContext): number {
  return scaled(RECORDS, context.scale, 1000);
}

/** Times `read` over the tiny-records file, checking it counts every record. */
function timed(context: SideContext, read: (path: string) => Promise<number>, note?: string) {
  const path = join(context.dataDirectory, FILE);
  const records = recordsOf(context);
  return timeRuns(
    context.repeats,
    records,
    async () => {
      const count = await read(path);
      if (count !== records) throw new Error(`counted ${count} records, expected ${records}`);
    },
    note,
  );
}

/**
 * Case g: a million 2-byte records (empty Examples), counted and verified. Tiny records are where a
 * per-record cost shows (a stream read, a record object, a payload copy); the baseline reads the file
 * and walks its frames in plain JS, trusting every length and checking no CRC.
 */
export const tinyRecordsCase: BenchCase = {
  name: 'tiny',
  title: 'g. count + verify 1M tiny records',
  unit: 'records/s',
  async prepare(dataDirectory, scale) {
    const records = scaled(RECORDS, scale, 1000);
    const frame = frameRecord(PAYLOAD);
    const bytes = new Uint8Array(frame.length * records);
    for (let index = 0; index < records; index++) bytes.set(frame, index * frame.length);
    await writeFile(join(dataDirectory, FILE), bytes);
    return [`${records} records of ${PAYLOAD.length} bytes (${bytes.length} bytes)`];
  },
  sides: {
    count: {
      label: 'tfpipe countRecords',
      run: (context) => timed(context, (path) => countRecords(path), 'both CRCs of every record'),
    },
    verify: {
      label: 'tfpipe verifyTfrecord (Example)',
      run: (context) =>
        timed(
          context,
          async (path) => (await verifyTfrecord(path, { payloadType: 'Example' })).records,
          'CRCs, and every payload parsed as an Example',
        ),
    },
    raw: {
      label: 'fs.readFile + frame walk',
      run: (context) =>
        timed(
          context,
          async (path) => {
            const bytes = await readFile(path);
            let count = 0;
            for (let offset = 0; offset + 12 <= bytes.length; count++) {
              offset += 16 + bytes.readUInt32LE(offset) + bytes.readUInt32LE(offset + 4) * 2 ** 32;
            }
            return count;
          },
          'lengths trusted, no CRC',
        ),
    },
  },
  comparisons: [
    { ours: 'count', baseline: 'raw' },
    { ours: 'verify', baseline: 'raw' },
  ],
};
