// The reading pass with the WebAssembly frame walker against the reader alone (the pass without the
// walker, as before it): the same records, problems, positions and lost ranges, for clean, damaged,
// truncated and oversized files cut into chunks of every size.
import { TfpipeError } from '@tfpipe/core';
import {
  DEFAULT_MAX_RECORD_BYTES,
  crc32c,
  decompressTfrecord,
  wasmFrameWalker,
  writeRecordHeader,
} from '@tfpipe/sink-tfrecord/web';
import { describe, expect, it } from 'vitest';
import { gzipped, tabularFile, tabularRecord, tfrecordFile } from './testing/tfrecord-files.js';
import { verifyingPass, WALKED_FRAME_BYTES } from './verifying-pass.js';

/** A stream of `bytes` in chunks of the sizes `sizes` gives, in turn. */
function chunked(bytes: Uint8Array, sizes: readonly number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const size = Math.max(1, sizes[turn++ % sizes.length]!);
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    },
    { highWaterMark: 0 },
  );
}

/** Everything a pass reports. */
async function pass(
  bytes: ReadableStream<Uint8Array>,
  walk: boolean,
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): Promise<{ records: number[][]; problems: unknown[]; lost: unknown[] }> {
  const records: number[][] = [];
  const problems: unknown[] = [];
  const lost = await verifyingPass(bytes, {
    file: 'f.tfrecord',
    stage: 'test',
    maxRecordBytes,
    crc: crc32c,
    walker: walk ? wasmFrameWalker() : undefined,
    payloads: true,
    record: (recordIndex, byteOffset, length, payload) =>
      records.push([recordIndex, byteOffset, length, crc32c(payload!)]),
    walked: (bytes, frames, count, recordIndex, byteOffset) => {
      for (let frame = 0; frame < count; frame++) {
        const start = frames[2 * frame]!;
        const length = frames[2 * frame + 1]!;
        const payload = bytes.subarray(start + 12, start + 12 + length);
        records.push([recordIndex + frame, byteOffset + start, length, crc32c(payload)]);
      }
    },
    problem: (error) =>
      problems.push(
        TfpipeError.is(error)
          ? [error.code, error.message, error.position.recordIndex, error.position.byteOffset]
          : String(error),
      ),
    afterChunk: () => Promise.resolve(),
  });
  return { records, problems, lost };
}

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 2 ** 32;
  };
}

const same = async (bytes: Uint8Array, sizes: number[], maxRecordBytes?: number) => {
  const walked = await pass(chunked(bytes, sizes), true, maxRecordBytes);
  expect(walked).toEqual(await pass(chunked(bytes, sizes), false, maxRecordBytes));
  return walked;
};

describe('verifyingPass', () => {
  it('finds every record of a clean file at its offset, whatever the chunk sizes', async () => {
    const file = tabularFile(200);
    for (const sizes of [[file.bytes.length], [1], [7, 300], [4096], [150, 2, 999]]) {
      const { records, problems, lost } = await same(file.bytes, sizes);
      expect(problems).toEqual([]);
      expect(lost).toEqual([]);
      expect(records.map(([index, offset, length]) => [index, offset, length])).toEqual(
        file.offsets.map((offset, index) => [index, offset, tabularRecord(index).length]),
      );
    }
  });

  it('reports what the reader alone reports for damaged bytes anywhere, truncation and junk', async () => {
    const file = tabularFile(60);
    const next = random(25);
    let damaged = 0;
    for (let trial = 0; trial < 200; trial++) {
      const bytes = file.bytes.slice();
      const flips = 1 + Math.floor(next() * 3);
      for (let flip = 0; flip < flips; flip++)
        bytes[Math.floor(next() * bytes.length)]! ^= 1 + Math.floor(next() * 255);
      const cut = next() < 0.3 ? Math.floor(next() * bytes.length) : bytes.length;
      const sizes = [1 + Math.floor(next() * 2000), 1 + Math.floor(next() * 50)];
      const { problems } = await same(bytes.subarray(0, cut), sizes);
      if (problems.length > 0) damaged++;
    }
    // Nearly every trial damages what it reads (a cut on a frame boundary past every flip does not).
    expect(damaged).toBeGreaterThan(180);
  });

  it('names the damaged record and its byte offset in the file after a clean stretch', async () => {
    const file = tabularFile(40);
    const bytes = file.bytes.slice();
    bytes[file.offsets[30]! + 20]! ^= 0xff;
    const { problems, lost, records } = await same(bytes, [1000]);
    expect(problems).toEqual([
      ['RECORD_CRC', expect.stringContaining(`byte ${file.offsets[30]} (record 30)`), 30, file.offsets[30]],
    ]);
    expect(lost).toEqual([{ start: file.offsets[30], end: file.offsets[31], reason: 'data CRC mismatch' }]);
    expect(records.map(([index]) => index)).toEqual([...Array(40).keys()].filter((index) => index !== 30));
  });

  it('leaves a record longer than the walked limit and one over maxRecordBytes to the reader', async () => {
    const big = new Uint8Array(WALKED_FRAME_BYTES + 10).fill(7);
    const file = tfrecordFile([
      tabularRecord(0),
      big,
      tabularRecord(2),
      new Uint8Array(300),
      tabularRecord(4),
    ]);
    const { records, problems } = await same(file.bytes, [3 * 1024 * 1024], 1024 * 1024 * 1024);
    expect(records.map(([index, , length]) => [index, length])).toEqual([
      [0, tabularRecord(0).length],
      [1, big.length],
      [2, tabularRecord(2).length],
      [3, 300],
      [4, tabularRecord(4).length],
    ]);
    expect(problems).toEqual([]);
    const tight = await same(file.bytes, [3 * 1024 * 1024], 200);
    expect(tight.problems.map((problem) => (problem as unknown[])[0])).toEqual([
      'RECORD_TOO_LARGE',
      'RECORD_TOO_LARGE',
    ]);
    expect(tight.records.map(([index]) => index)).toEqual([0, 2, 4]);
  });

  it('reports a huge length field with a valid length CRC as the reader does', async () => {
    const header = new Uint8Array(12);
    writeRecordHeader(header, 0, 2 ** 40);
    const file = tabularFile(5);
    const bytes = new Uint8Array([...file.bytes, ...header, ...new Uint8Array(100)]);
    const { problems, records } = await same(bytes, [64]);
    expect(records).toHaveLength(5);
    expect(problems).toEqual([
      ['RECORD_TOO_LARGE', expect.stringContaining('length 1099511627776 bytes'), 5, file.bytes.length],
    ]);
  });

  it('reads a gzip file, and a gzip file cut short, as the reader does', async () => {
    const file = tabularFile(300);
    const compressed = gzipped(file.bytes);
    const inflate = (bytes: Uint8Array): ReadableStream<Uint8Array> =>
      decompressTfrecord(chunked(bytes, [500]), { compression: 'gzip', file: 'f.tfrecord.gz' });
    const whole = await pass(inflate(compressed), true);
    expect(whole).toEqual(await pass(inflate(compressed), false));
    expect(whole.records).toHaveLength(300);
    const cut = compressed.subarray(0, Math.floor(compressed.length * 0.6));
    const partial = await pass(inflate(cut), true);
    expect(partial).toEqual(await pass(inflate(cut), false));
    expect(partial.problems).toEqual([
      ['DECOMPRESS', expect.stringContaining('cannot decompress gzip'), undefined, expect.any(Number)],
    ]);
  });

  it('passes a read that fails on to the problems, after the records before it', async () => {
    const file = tabularFile(20);
    let sent = false;
    const failing = (): ReadableStream<Uint8Array> =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error('the file changed on disk'));
          sent = true;
          controller.enqueue(file.bytes.subarray(0, file.offsets[10]! + 5));
        },
      });
    const walked = await pass(failing(), true);
    sent = false;
    expect(walked).toEqual(await pass(failing(), false));
    expect(walked.records).toHaveLength(10);
    expect(walked.problems).toEqual(['Error: the file changed on disk']);
  });
});
