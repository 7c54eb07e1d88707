import { afterEach, describe, expect, it, vi } from 'vitest';
import { CRC_TABLES } from './crc32c.js';
import { join } from 'node:path';
import { randomPayloads, tempDir, writeAll } from './__fixtures__/helpers.js';
import {
  dropSharedFrameBuffers,
  plainBufferCounts,
  pooledSharedFrameBuffers,
  releasePlainBuffers,
  releaseSharedFrameBuffers,
  sharedBufferCounts,
  takePlainBuffer,
  takeSharedFrameBuffers,
} from './shared-buffers.js';
import { tfrecordSink } from './tfrecord-sink.js';

// Sizes no other test file uses; each test file runs in its own module instance anyway.
const SIZE = 96 * 1024;

afterEach(() => {
  dropSharedFrameBuffers();
  vi.useRealTimers();
});

describe('shared frame buffers', () => {
  it('are shared memory, with a frame table for the most frames that fit', () => {
    const { buffer, frames } = takeSharedFrameBuffers(SIZE);
    expect(buffer.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(frames.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(buffer.length).toBe(SIZE);
    // Every frame is at least 16 bytes (an empty record): one more slot than whole frames fit.
    expect(frames.length).toBe(SIZE / 16 + 1);
  });

  it('lie in one WebAssembly memory: buffer from byte 0, the frame table, the job state, the CRC tables', () => {
    const { buffer, frames, state, memory, tables } = takeSharedFrameBuffers(SIZE + 3);
    expect(memory).toBeInstanceOf(WebAssembly.Memory);
    expect(buffer.buffer).toBe(memory!.buffer);
    expect(frames.buffer).toBe(memory!.buffer);
    expect(state.buffer).toBe(memory!.buffer);
    expect(buffer.byteOffset).toBe(0);
    expect(frames.byteOffset).toBeGreaterThanOrEqual(SIZE + 3);
    expect(frames.byteOffset % 4).toBe(0);
    expect(state.byteOffset).toBe(frames.byteOffset + frames.byteLength);
    expect(state.length).toBe(1);
    expect(tables).toBe(state.byteOffset + 4);
    expect(tables + 16 * 1024).toBeLessThanOrEqual(memory!.buffer.byteLength);
    CRC_TABLES.forEach((table, index) =>
      expect(new Int32Array(memory!.buffer, tables + 1024 * index, 256)).toEqual(table),
    );
  });

  it('hands out a given-back buffer again, and never the same one twice', () => {
    const first = takeSharedFrameBuffers(SIZE);
    const second = takeSharedFrameBuffers(SIZE);
    releaseSharedFrameBuffers([first, second]);
    const { allocated } = sharedBufferCounts;
    const again = [takeSharedFrameBuffers(SIZE), takeSharedFrameBuffers(SIZE), takeSharedFrameBuffers(SIZE)];
    expect(sharedBufferCounts.allocated).toBe(allocated + 1);
    expect(new Set(again).size).toBe(3);
    expect(again).toContain(first);
    expect(again).toContain(second);
    // Another size is never served from this pool.
    releaseSharedFrameBuffers(again);
    expect(takeSharedFrameBuffers(SIZE * 2).buffer.length).toBe(SIZE * 2);
  });

  it('keeps at most eight idle buffers of a size, each once', () => {
    const taken = Array.from({ length: 11 }, () => takeSharedFrameBuffers(SIZE));
    releaseSharedFrameBuffers([taken[0]!, taken[0]!]);
    expect(pooledSharedFrameBuffers(SIZE)).toBe(1);
    releaseSharedFrameBuffers(taken.slice(1));
    expect(pooledSharedFrameBuffers(SIZE)).toBe(8);
  });

  it('drops idle buffers 5 s after the last use', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    releaseSharedFrameBuffers([takeSharedFrameBuffers(SIZE)]);
    vi.advanceTimersByTime(3000);
    // A use in between restarts the wait.
    releaseSharedFrameBuffers([takeSharedFrameBuffers(SIZE)]);
    vi.advanceTimersByTime(3000);
    expect(pooledSharedFrameBuffers(SIZE)).toBe(1);
    vi.advanceTimersByTime(2100);
    expect(pooledSharedFrameBuffers(SIZE)).toBe(0);
  });
});

describe('plain write buffers', () => {
  it('hands out given-back buffers again, from their own pool, not the shared one', () => {
    const first = takePlainBuffer(SIZE);
    const shared = takeSharedFrameBuffers(SIZE);
    releasePlainBuffers([first, first]);
    releaseSharedFrameBuffers([shared]);
    const { allocated } = plainBufferCounts;
    const again = [takePlainBuffer(SIZE), takePlainBuffer(SIZE)];
    expect(again[0]).toBe(first);
    expect(again[1]).not.toBe(first);
    expect(again[1]!.buffer).toBeInstanceOf(ArrayBuffer);
    expect(plainBufferCounts.allocated).toBe(allocated + 1);
    expect(takeSharedFrameBuffers(SIZE)).toBe(shared);
  });

  it('are reused by the next file: a second file of large records allocates none', async () => {
    const directory = await tempDir();
    // Records of 10-30 KB are framed on this thread, in plain buffers.
    const records = randomPayloads(40, 30_000, 5).map((payload) => new Uint8Array(10_000 + payload.length));
    await writeAll(tfrecordSink({ path: join(directory, 'a.tfrecord'), bufferBytes: SIZE }), records);
    const { allocated, reused } = plainBufferCounts;
    await writeAll(tfrecordSink({ path: join(directory, 'b.tfrecord'), bufferBytes: SIZE }), records);
    expect(plainBufferCounts.allocated).toBe(allocated);
    expect(plainBufferCounts.reused).toBeGreaterThan(reused);
  });
});
