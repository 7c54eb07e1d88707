import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameRecord } from './frame-record.js';
import { wasmFrameWalker, type FrameWalk } from './wasm-frame-walker.js';

const MAX = 256 * 1024 * 1024;

/** The frames of `payloads` back to back, with each frame's start. */
function framed(payloads: readonly Uint8Array[]): { bytes: Uint8Array; starts: number[] } {
  const frames = payloads.map((payload) => frameRecord(payload));
  const bytes = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  const starts: number[] = [];
  let at = 0;
  for (const frame of frames) {
    starts.push(at);
    bytes.set(frame, at);
    at += frame.length;
  }
  return { bytes, starts };
}

const pairs = (walk: FrameWalk): [number, number][] =>
  Array.from({ length: walk.count }, (_, index) => [walk.frames[2 * index]!, walk.frames[2 * index + 1]!]);

const payloads = fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 30 });

describe('wasmFrameWalker', () => {
  it('verifies every whole frame of head + chunk, split anywhere, and stops where the bytes end', () => {
    const walker = wasmFrameWalker()!;
    fc.assert(
      fc.property(payloads, fc.nat(), fc.nat(), (records, splitSeed, cutSeed) => {
        const { bytes, starts } = framed(records);
        const cut = cutSeed % (bytes.length + 1);
        const split = splitSeed % (cut + 1);
        const walk = walker.walk(bytes.subarray(0, split), bytes.subarray(split, cut), MAX);
        const whole = starts.filter((start, index) => start + records[index]!.length + 16 <= cut);
        expect(walk.failed).toBe(false);
        expect(walk.count).toBe(whole.length);
        expect(pairs(walk)).toEqual(whole.map((start, index) => [start, records[index]!.length]));
        expect(walk.stop).toBe(whole.length === starts.length ? bytes.length : starts[whole.length]);
        expect(walk.stop <= cut).toBe(true);
        expect([...walk.bytes]).toEqual([...bytes.subarray(0, cut)]);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at the first frame with a damaged byte, anywhere in the frame, and says it failed', () => {
    const walker = wasmFrameWalker()!;
    fc.assert(
      fc.property(payloads, fc.nat(), fc.integer({ min: 1, max: 255 }), (records, atSeed, flip) => {
        const { bytes, starts } = framed(records);
        const damaged = atSeed % bytes.length;
        bytes[damaged]! ^= flip;
        const frame = starts.filter((start) => start <= damaged).length - 1;
        const walk = walker.walk(new Uint8Array(0), bytes, MAX);
        expect(walk.count).toBe(frame);
        expect(walk.stop).toBe(starts[frame]);
        // A damaged length can claim more bytes than there are: then the header's CRC alone fails it.
        expect(walk.failed).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('fails a frame whose verified length is over the maximum, and one whose high length word is set', () => {
    const walker = wasmFrameWalker()!;
    const { bytes } = framed([new Uint8Array(10), new Uint8Array(100)]);
    const tight = walker.walk(new Uint8Array(0), bytes, 99);
    expect([tight.count, tight.stop, tight.failed]).toEqual([1, 26, true]);
    const huge = new Uint8Array(16);
    new DataView(huge.buffer).setUint32(4, 1, true);
    const walk = walker.walk(new Uint8Array(0), huge, MAX);
    expect([walk.count, walk.stop, walk.failed]).toEqual([0, 0, true]);
  });

  it('grows its memory for larger inputs and keeps verifying after', () => {
    const walker = wasmFrameWalker()!;
    const small = framed([new Uint8Array(5)]);
    expect(walker.walk(new Uint8Array(0), small.bytes, MAX).count).toBe(1);
    const large = framed(Array.from({ length: 3 }, (_, index) => new Uint8Array(3_000_000).fill(index)));
    const walk = walker.walk(large.bytes.subarray(0, 10), large.bytes.subarray(10), MAX);
    expect(pairs(walk)).toEqual(large.starts.map((start) => [start, 3_000_000]));
    expect(walker.walk(new Uint8Array(0), small.bytes, MAX).count).toBe(1);
  });

  it('finds nothing in empty input', () => {
    const walk = wasmFrameWalker()!.walk(new Uint8Array(0), new Uint8Array(0), MAX);
    expect([walk.count, walk.stop, walk.failed, walk.bytes.length]).toEqual([0, 0, false, 0]);
  });
});
