import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { EncodedExample, ENCODED } from '@tfpipe/core/internal';
import {
  TfpipeError,
  buildExamples,
  encodeExample,
  example,
  int64,
  reportOf,
  type Example,
} from '@tfpipe/core';
import { describe, expect, it, vi } from 'vitest';
import { collect, framedFile, hex, tempDir, writeAll } from './__fixtures__/helpers.js';
import { frameRecord } from './frame-record.js';
import type { TfrecordSinkOptions } from './sink-options.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';
import { crcThread, fillFrameCrcsHere } from './crc-thread.js';
import { pooledSharedFrameBuffers, sharedBufferCounts } from './shared-buffers.js';
import { threadWriteCounts } from './frame-buffers.js';
import { ShardOutput } from './shard-output.js';

type Row = { id: unknown; score: unknown; name: unknown };
const SPEC = { id: 'int64', score: 'float', name: 'bytes' } as const;

/**
 * Rows that take every path into the sink: the generated writer (plain cells), the general encoder
 * (a bigint beyond 2^53), the Feature path (a list of lists is refused by both encoders, so `name`
 * is a string there), and long names that make some records larger than the small buffers below.
 */
function rows(count: number): Row[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index % 7 === 3 ? 2n ** 60n + BigInt(index) : index % 5 === 1 ? -index : index,
    score: index % 11 === 0 ? `${index}.25` : index / 4,
    name: index % 13 === 0 ? 'ü'.repeat(index * 40 + 1) : `row ${index}`,
  }));
}

/** The Examples the rows describe, built with the Feature path alone. */
function expected(values: readonly Row[]): Example[] {
  return values.map((row) => ({
    features: {
      id: int64(BigInt(row.id as number | bigint)),
      score: { kind: 'float', value: [Number(row.score)] },
      name: { kind: 'bytes', value: [new TextEncoder().encode(row.name as string)] },
    },
  }));
}

/** Each record's frame, made by `frameRecord` from protobufjs-checked `encodeExample` bytes. */
const framed = (examples: readonly Example[]): Uint8Array =>
  framedFile(examples.map((value) => encodeExample(value)));

/** Where two byte strings first differ, and their lengths: short messages for long files. */
function difference(actual: Uint8Array, wanted: Uint8Array): string {
  let index = 0;
  while (index < actual.length && index < wanted.length && actual[index] === wanted[index]) index++;
  return index === actual.length && index === wanted.length
    ? 'same'
    : `differ at byte ${index} (lengths ${actual.length} and ${wanted.length})`;
}

async function built(values: readonly Row[], batch: number): Promise<Example[][]> {
  const batches: Row[][] = [];
  for (let start = 0; start < values.length; start += batch) batches.push(values.slice(start, start + batch));
  const stream = new ReadableStream<Row[]>({
    start(controller) {
      for (const chunk of batches) controller.enqueue(chunk);
      controller.close();
    },
  });
  return collect(stream.pipeThrough(buildExamples.batches<Row, typeof SPEC>(SPEC)));
}

/**
 * Rows of the cases that write a whole file: the long names make 52 of them larger than a 64 KiB
 * buffer (up to 120 KB) and the file 7 MB.
 */
const FILE_ROWS = 1500;

/** Shared buffers taken so far, new or from the pool. */
const sharedTaken = (): number => sharedBufferCounts.allocated + sharedBufferCounts.reused;
/** `count` records of 20 KB: large enough to be framed on this thread. */
const largeRecords = (count: number): Uint8Array[] =>
  Array.from({ length: count }, (_, index) => new Uint8Array(20_000).fill(index));
/** `count` short records, whose CRCs the CRC thread fills in. */
const smallRecords = (count: number): Uint8Array[] =>
  Array.from({ length: count }, (_, index) => new TextEncoder().encode(`small ${index}`));
describe('records framed where their encoder left room', () => {
  it('buildExamples leaves the frame room around each record', async () => {
    const [batch] = await built(rows(3), 3);
    for (const record of batch!) {
      expect(record).toBeInstanceOf(EncodedExample);
      expect((record as EncodedExample).frameRoom).toBe(true);
    }
  });

  const cases: { name: string; options: Partial<TfrecordSinkOptions>; batch: number }[] = [
    { name: 'one file', options: {}, batch: 64 },
    // Flushes fall inside runs of frames, and records larger than the whole buffer.
    { name: 'a buffer smaller than some records', options: { bufferBytes: 64 * 1024 }, batch: 50 },
    { name: 'gzip', options: { compression: 'gzip' }, batch: 64 },
  ];
  for (const thread of [false, true]) {
    for (const { name, options, batch } of cases) {
      it(`writes the same bytes as framing each encoded record (${name}, CRC thread ${thread ? 'on' : 'off'})`, async () => {
        if (thread) expect(await crcThread.whenReady()).toBe(true);
        const framedBefore = crcThread.framed;
        const directory = await tempDir();
        const path = join(directory, 'out.tfrecord');
        const values = rows(FILE_ROWS);
        const sink = tfrecordSink({
          path,
          index: options.compression === undefined,
          crcThread: thread,
          bufferBytes: 256 * 1024,
          ...options,
        });
        await writeAll(sink, [...(await built(values, batch))]);
        // The thread framed buffers only when it was asked to (and ready).
        if (thread) expect(crcThread.framed).toBeGreaterThan(framedBefore);
        else expect(crcThread.framed).toBe(framedBefore);
        expect(reportOf(sink)).toMatchObject({
          records: values.length,
          shards: [{ path, records: values.length }],
        });
        const records = await collect(tfrecordSource({ paths: path }));
        const wanted = expected(values).map((value) => encodeExample(value));
        expect(records).toHaveLength(wanted.length);
        // Some records are larger than the 64 KiB buffer of the second case.
        expect(wanted.filter((record) => record.length > 64 * 1024).length).toBeGreaterThan(20);
        // Tens of megabytes of records: compare bytes, and spell out only a record that differs.
        for (const [position, record] of records.entries())
          if (difference(record.data, wanted[position]!) !== 'same')
            expect(hex(record.data), `record ${position}`).toBe(hex(wanted[position]!));
        if (options.compression === undefined) {
          expect(difference(await readFile(path), framedFile(wanted))).toBe('same');
          // The index's offsets and sizes walk the file frame by frame.
          const index = (await readFile(`${path}.idx`, 'utf8')).trim().split('\n');
          expect(index).toHaveLength(wanted.length);
          let offset = 0;
          for (const [position, line] of index.entries()) {
            const size = 16 + wanted[position]!.length;
            if (line !== `${offset} ${size}`)
              expect(line, `index line ${position}`).toBe(`${offset} ${size}`);
            offset += size;
          }
        }
      });
    }
  }

  it('keeps input order when framed records, plain Examples and raw bytes alternate', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    const path = join(directory, 'mixed.tfrecord');
    const values = rows(900);
    const encoded = (await built(values, 30)).flat();
    const references = expected(values);
    const mixed: (Example | Uint8Array)[] = encoded.map((record, index) =>
      index % 3 === 1 ? references[index]! : index % 3 === 2 ? encodeExample(references[index]!) : record,
    );
    await writeAll(tfrecordSink({ path, bufferBytes: 64 * 1024 }), [
      mixed.slice(0, 450),
      ...mixed.slice(450),
    ]);
    expect(difference(await readFile(path), framed(references))).toBe('same');
  });

  it('switches to the CRC thread in the middle of a file when it becomes ready', async () => {
    await crcThread.stop();
    const directory = await tempDir();
    const path = join(directory, 'switched.tfrecord');
    const values = rows(1500);
    const batches = await built(values, 50);
    const framedBefore = crcThread.framed;
    const sink = tfrecordSink({ path, bufferBytes: 64 * 1024 }).getWriter();
    for (const [index, batch] of batches.entries()) {
      // The sink started the thread; the first half is framed here, the rest there.
      if (index === 15) expect(await crcThread.whenReady()).toBe(true);
      await sink.write(batch);
    }
    await sink.close();
    expect(crcThread.framed).toBeGreaterThan(framedBefore);
    expect(difference(await readFile(path), framed(expected(values)))).toBe('same');
  });

  it('fails, leaving no file, when the CRC thread is lost with a buffer', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const lost = vi.spyOn(crcThread, 'frame').mockRejectedValue(new Error('the CRC thread exited'));
    try {
      const directory = await tempDir();
      const path = join(directory, 'lost.tfrecord');
      const batches = await built(rows(1500), 50);
      const failure = await writeAll(tfrecordSink({ path, bufferBytes: 64 * 1024 }), batches).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(TfpipeError.is(failure)).toBe(true);
      expect(String((failure as TfpipeError).message)).toMatch(/CRC thread exited/);
      expect(lost).toHaveBeenCalled();
      expect(await readdir(directory)).toEqual([]);
    } finally {
      lost.mockRestore();
    }
  });

  it('keeps an idle CRC thread 5 s past the last time a file asked for it', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      crcThread.start();
      vi.advanceTimersByTime(4000);
      // A file opening (its FrameBuffers call start) restarts the wait.
      crcThread.start();
      vi.advanceTimersByTime(4000);
      expect(crcThread.ready).toBe(true);
      vi.advanceTimersByTime(1500);
      expect(crcThread.ready).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    expect(await crcThread.whenReady()).toBe(true);
  });

  it('waits for the oldest buffer in flight, not for all of them, when every buffer is taken', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    // The CRC thread's jobs are held until released (the CRCs then filled in here).
    const held: (() => void)[] = [];
    let holding = true;
    const frame = vi.spyOn(crcThread, 'frame').mockImplementation((buffers, count, write) => {
      const work = (): void => {
        fillFrameCrcsHere(buffers.buffer, buffers.frames, count);
        if (write !== undefined) writeSync(write.fd, buffers.buffer, 0, write.length);
      };
      if (!holding) {
        work();
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => held.push(() => (work(), resolve())));
    });
    try {
      const directory = await tempDir();
      const path = join(directory, 'queued.tfrecord');
      const values: Row[] = Array.from({ length: 6000 }, (_, index) => ({
        id: index,
        score: index / 4,
        name: `row ${index}`,
      }));
      const batches = await built(values, 50);
      const writer = tfrecordSink({ path, bufferBytes: 64 * 1024 }).getWriter();
      const pause = (ms: number): Promise<false> => new Promise((resolve) => setTimeout(resolve, ms, false));
      let stalled: Promise<void> | undefined;
      let index = 0;
      for (; index < batches.length && stalled === undefined; index++) {
        const write = writer.write(batches[index]);
        const accepted = await Promise.race([write.then(() => true), pause(20)]);
        // With all four buffers held, a write that needs a fifth cannot finish until one is released.
        if (!accepted && held.length === 4) stalled = write;
        else if (!accepted) await write;
      }
      expect(stalled).toBeDefined();
      held[0]!();
      const outcome = await Promise.race([stalled!.then(() => 'went on'), pause(2000).then(() => 'stalled')]);
      expect(outcome).toBe('went on');
      expect(held).toHaveLength(4);
      holding = false;
      for (const release of held.slice(1)) release();
      for (; index < batches.length; index++) await writer.write(batches[index]);
      await writer.close();
      expect(difference(await readFile(path), framed(expected(values)))).toBe('same');
    } finally {
      frame.mockRestore();
    }
  });

  it('reuses the shared buffers of a finished file for the next one', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    const values = rows(1500);
    const batches = await built(values, 50);
    // A size no other test uses, so the pool starts empty for it.
    const bufferBytes = 72 * 1024;
    expect(pooledSharedFrameBuffers(bufferBytes)).toBe(0);
    await writeAll(tfrecordSink({ path: join(directory, 'first.tfrecord'), bufferBytes }), batches);
    const pooled = pooledSharedFrameBuffers(bufferBytes);
    expect(pooled).toBeGreaterThan(0);
    const { allocated, reused } = sharedBufferCounts;
    await writeAll(tfrecordSink({ path: join(directory, 'second.tfrecord'), bufferBytes }), batches);
    // How many buffers a file holds at once depends on the CRC thread's pace; the pooled ones go first.
    const taken = sharedBufferCounts.allocated - allocated + (sharedBufferCounts.reused - reused);
    expect(sharedBufferCounts.reused - reused).toBe(Math.min(pooled, taken));
    expect(sharedBufferCounts.reused).toBeGreaterThan(reused);
    expect(pooledSharedFrameBuffers(bufferBytes)).toBeGreaterThanOrEqual(pooled);
    for (const name of ['first.tfrecord', 'second.tfrecord']) {
      expect(difference(await readFile(join(directory, name)), framed(expected(values)))).toBe('same');
    }
  });

  it('leaves the CRC thread out after a buffer of large records only, and takes it back for small ones', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    const path = join(directory, 'large-then-small.tfrecord');
    const large = largeRecords(60);
    const small = smallRecords(6000);
    const takenBefore = sharedTaken();
    const framedBefore = crcThread.framed;
    const sink = tfrecordSink({ path, bufferBytes: 64 * 1024 }).getWriter();
    for (const record of large) await sink.write(record);
    // 1.2 MB through 64 KiB buffers: only the first is shared memory, taken before any record came.
    expect(sharedTaken() - takenBefore).toBe(1);
    expect(crcThread.framed).toBe(framedBefore);
    for (const record of small) await sink.write(record);
    await sink.close();
    // The first buffer with small records is framed here; the ones after it go to the thread again.
    expect(sharedTaken() - takenBefore).toBeGreaterThan(1);
    expect(crcThread.framed).toBeGreaterThan(framedBefore);
    expect(difference(await readFile(path), framedFile([...large, ...small]))).toBe('same');
  });

  it('takes no more shared buffers when a file goes back and forth between large and small records', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    const path = join(directory, 'back-and-forth.tfrecord');
    const large = largeRecords(12);
    const small = smallRecords(3000);
    const takenBefore = sharedTaken();
    const sink = tfrecordSink({ path, bufferBytes: 64 * 1024 }).getWriter();
    const records: Uint8Array[] = [];
    for (let cycle = 0; cycle < 10; cycle++) records.push(...large, ...small);
    for (const record of records) await sink.write(record);
    await sink.close();
    // Each switch back to small records finds one of the file's own buffers free: at most four in all.
    expect(sharedTaken() - takenBefore).toBeLessThanOrEqual(4);
    expect(difference(await readFile(path), framedFile(records))).toBe('same');
  });

  it('never gives two files written at once the same shared buffer', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    const bufferBytes = 64 * 1024;
    // Buffers left by earlier files are in the pool: both files take from it and give back to it.
    const warm = await built(rows(600), 50);
    await writeAll(tfrecordSink({ path: join(directory, 'warm.tfrecord'), bufferBytes }), warm);
    const first = rows(2000);
    const second = rows(2600).slice(600);
    const writers = [
      tfrecordSink({ path: join(directory, 'a.tfrecord'), bufferBytes }).getWriter(),
      tfrecordSink({ path: join(directory, 'b.tfrecord'), bufferBytes }).getWriter(),
    ];
    const [a, b] = [await built(first, 40), await built(second, 40)];
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      await Promise.all([
        index < a.length ? writers[0]!.write(a[index]) : undefined,
        index < b.length ? writers[1]!.write(b[index]) : undefined,
      ]);
    }
    await Promise.all(writers.map((writer) => writer.close()));
    expect(difference(await readFile(join(directory, 'a.tfrecord')), framed(expected(first)))).toBe('same');
    expect(difference(await readFile(join(directory, 'b.tfrecord')), framed(expected(second)))).toBe('same');
  });

  it('writes a record sent to two sinks the same way in both', async () => {
    const directory = await tempDir();
    const values = rows(500);
    const records = (await built(values, 100)).flat();
    await writeAll(tfrecordSink({ path: join(directory, 'a.tfrecord') }), records);
    await writeAll(tfrecordSink({ directory, prefix: 'b', maxRecords: 120 }), records);
    const shards = (await readdir(directory)).filter((file) => file.startsWith('b-')).sort();
    expect(shards).toHaveLength(5);
    const b = Buffer.concat(await Promise.all(shards.map((file) => readFile(join(directory, file)))));
    expect(difference(await readFile(join(directory, 'a.tfrecord')), b)).toBe('same');
    expect(difference(b, framed(expected(values)))).toBe('same');
    // The payloads themselves were never written by the sinks.
    expect(hex((records[0] as EncodedExample)[ENCODED])).toBe(hex(encodeExample(expected(values)[0]!)));
  });

  it('frames an EncodedExample built without room by copying it', async () => {
    const directory = await tempDir();
    const path = join(directory, 'copied.tfrecord');
    const reference = example({ id: int64(5n) });
    const bytes = encodeExample(reference);
    const buffer = new Uint8Array(bytes.length + 2);
    buffer.set(bytes, 1);
    await writeAll(tfrecordSink({ path }), [new EncodedExample(buffer, 1, bytes.length)]);
    expect(hex(await readFile(path))).toBe(hex(frameRecord(bytes)));
    expect(buffer[0]).toBe(0);
    expect(buffer[buffer.length - 1]).toBe(0);
  });
});

describe('buffers the CRC thread writes itself', () => {
  const values = rows(FILE_ROWS);

  it('are written by the thread where the file takes the bytes as they are, and only there', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    const batches = await built(values, 50);
    const cases: [string, Partial<TfrecordSinkOptions>, boolean][] = [
      ['plain', {}, true],
      ['manifest', { manifest: true }, false],
      ['gzip', { compression: 'gzip' }, false],
    ];
    for (const [name, options, byThread] of cases) {
      const path = join(directory, `${name}.tfrecord`);
      const writtenBefore = crcThread.written;
      await writeAll(tfrecordSink({ path, bufferBytes: 64 * 1024, ...options }), batches);
      expect(crcThread.written > writtenBefore, name).toBe(byThread);
      const bytes = name === 'gzip' ? gunzipSync(await readFile(path)) : await readFile(path);
      expect(difference(bytes, framed(expected(values))), name).toBe('same');
    }
  });

  it('are taken back by their job state when this thread has not yet seen the answer', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const path = join(await tempDir(), 'reclaimed.tfrecord');
    const many: Row[] = Array.from({ length: 20_000 }, (_, index) => ({
      id: index,
      score: index / 4,
      name: `row ${index}`,
    }));
    const batches = await built(many, 200);
    const reclaimedBefore = threadWriteCounts.reclaimed;
    const writer = tfrecordSink({ path, bufferBytes: 64 * 1024 }).getWriter();
    for (const batch of batches) {
      // Each write settles through promises alone, so the thread's answers wait in the queue; a pause
      // that does not yield gives the thread time to finish the buffers it has.
      await writer.write(batch);
      const until = performance.now() + 2;
      while (performance.now() < until);
    }
    await writer.close();
    expect(threadWriteCounts.reclaimed).toBeGreaterThan(reclaimedBefore);
    expect(difference(await readFile(path), framed(expected(many)))).toBe('same');
  });

  /** Large records (plain buffers, written from this thread) then small ones (buffers for the thread). */
  const large = Array.from({ length: 12 }, (_, index) => new Uint8Array(20_000).fill(index));
  const small = Array.from({ length: 6000 }, (_, index) => new TextEncoder().encode(`small ${index}`));

  /**
   * Writes `large` then `small` to `path` while every write from this thread first awaits
   * `before(chunks)`; returns how many such writes there were.
   */
  async function writeWithSlowWrites(
    path: string,
    before: (chunks: readonly Uint8Array[]) => Promise<void>,
  ): Promise<number> {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- each is called with its instance below
    const { write, writev } = ShardOutput.prototype;
    const slowWrite = vi.spyOn(ShardOutput.prototype, 'write').mockImplementation(async function (
      this: ShardOutput,
      chunk,
    ) {
      await before([chunk]);
      return write.call(this, chunk);
    });
    const slowWritev = vi.spyOn(ShardOutput.prototype, 'writev').mockImplementation(async function (
      this: ShardOutput,
      chunks,
    ) {
      await before(chunks);
      return writev.call(this, chunks);
    });
    try {
      const sink = tfrecordSink({ path, bufferBytes: 64 * 1024 }).getWriter();
      for (const record of large) await sink.write(record);
      for (const record of small) await sink.write(record);
      await sink.close();
      return slowWrite.mock.calls.length + slowWritev.mock.calls.length;
    } finally {
      slowWrite.mockRestore();
      slowWritev.mockRestore();
    }
  }

  it('wait for a write of this thread that is still under way', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const path = join(await tempDir(), 'ordered.tfrecord');
    const writtenBefore = crcThread.written;
    // Every write from this thread (the large records' plain buffers) finishes late.
    const slow = await writeWithSlowWrites(path, () => new Promise((resolve) => setTimeout(resolve, 40)));
    expect(slow).toBeGreaterThan(0);
    expect(crcThread.written).toBeGreaterThan(writtenBefore);
    expect(difference(await readFile(path), framedFile([...large, ...small]))).toBe('same');
  });

  it('are written here when the thread has gone while they waited for a write of this thread', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const path = join(await tempDir(), 'gone.tfrecord');
    const writtenBefore = crcThread.written;
    // The plain buffer that holds the first small records is written late; the next buffer goes to
    // the thread and waits for that write, and the thread is gone by the time it ends.
    let gone = false;
    await writeWithSlowWrites(path, async (chunks) => {
      if (gone || !chunks.some((chunk) => Buffer.from(chunk).includes('small 0'))) return;
      gone = true;
      await new Promise((resolve) => setTimeout(resolve, 40));
      await crcThread.stop();
    });
    expect(gone).toBe(true);
    // Only the first buffer, taken while the thread was there, of large records only.
    expect(crcThread.written - writtenBefore).toBe(1);
    expect(difference(await readFile(path), framedFile([...large, ...small]))).toBe('same');
  });

  it("fail with the file system's error, leaving no file, when the thread's write fails", async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const directory = await tempDir();
    // Every write the thread makes goes to /dev/full: ENOSPC.
    const full = openSync('/dev/full', 'w');
    const fd = vi.spyOn(ShardOutput.prototype, 'directFd', 'get').mockReturnValue(full);
    try {
      const batches = await built(values, 50);
      const failure = await writeAll(
        tfrecordSink({ path: join(directory, 'full.tfrecord'), bufferBytes: 64 * 1024 }),
        batches,
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(fd).toHaveBeenCalled();
      expect(TfpipeError.is(failure) && failure.code).toBe('DISK_FULL');
      expect(await readdir(directory)).toEqual([]);
    } finally {
      fd.mockRestore();
      closeSync(full);
    }
  });
});
