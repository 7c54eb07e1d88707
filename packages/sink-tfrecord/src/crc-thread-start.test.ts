import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { framedFile, tempDir, writeAll } from './__fixtures__/helpers.js';
import { crcThread } from './crc-thread.js';
import { tfrecordSink } from './tfrecord-sink.js';

/** `count` short records (under 4 KiB: their CRCs are the ones the thread would fill in). */
const smallRecords = (count: number): Uint8Array[] =>
  Array.from({ length: count }, (_, index) => new TextEncoder().encode(`small record ${index}`));
/** `count` records of 20 KB, framed on the main thread whatever the thread does. */
const largeRecords = (count: number): Uint8Array[] =>
  Array.from({ length: count }, (_, index) => new Uint8Array(20_000).fill(index % 251));

/** Writes `records` to a new file with 64 KiB write buffers; resolves to its bytes. */
async function written(records: readonly Uint8Array[], name: string): Promise<Buffer> {
  const path = join(await tempDir(), name);
  await writeAll(tfrecordSink({ path, bufferBytes: 64 * 1024, fsync: false }), records);
  return readFile(path);
}

/** The file TensorFlow's framing makes of `records` (helpers' `framedFile`, from `frameRecord`). */
const framed = (records: readonly Uint8Array[]): Buffer => Buffer.from(framedFile(records));

describe('when the CRC thread starts', () => {
  // Each case starts without a thread: one left from another case would hide a start.
  afterEach(() => crcThread.stop());

  it('starts no thread for a file that fits one write buffer', async () => {
    await crcThread.stop();
    const starts = crcThread.starts;
    const records = smallRecords(1000); // ~26 KB framed
    expect((await written(records, 'one-buffer.tfrecord')).equals(framed(records))).toBe(true);
    expect(crcThread.starts).toBe(starts);
  });

  it('starts no thread for a file of large records only', async () => {
    await crcThread.stop();
    const starts = crcThread.starts;
    const records = largeRecords(40); // 800 KB: twelve buffers' worth
    expect((await written(records, 'large.tfrecord')).equals(framed(records))).toBe(true);
    expect(crcThread.starts).toBe(starts);
  });

  it('starts it once a full buffer of small records goes out, uses it, and the bytes are the same', async () => {
    await crcThread.stop();
    const starts = crcThread.starts;
    const records = smallRecords(20_000); // ~590 KB framed: nine buffers
    const path = join(await tempDir(), 'many-buffers.tfrecord');
    const writer = tfrecordSink({ path, bufferBytes: 64 * 1024, fsync: false }).getWriter();
    for (const record of records.slice(0, 5000)) await writer.write(record); // two buffers' worth
    expect(crcThread.starts).toBe(starts + 1);
    // Ready now: the next buffers' CRCs are filled in there.
    expect(await crcThread.whenReady()).toBe(true);
    const framedBefore = crcThread.framed;
    for (const record of records.slice(5000)) await writer.write(record);
    await writer.close();
    expect(crcThread.starts).toBe(starts + 1);
    expect(crcThread.framed).toBeGreaterThan(framedBefore);
    expect((await readFile(path)).equals(framed(records))).toBe(true);
  });
});
