import { describe, expect, it } from 'vitest';
import { RecordIndex } from './record-index.js';

/** A frame walk's table for frames of `lengths` back to back from byte 0. */
function frameTable(lengths: readonly number[]): Int32Array {
  const frames = new Int32Array(2 * lengths.length);
  let at = 0;
  lengths.forEach((length, frame) => {
    frames[2 * frame] = at;
    frames[2 * frame + 1] = length;
    at += length + 16;
  });
  return frames;
}

describe('RecordIndex', () => {
  it('holds records added one by one and a chunk at a time across its pages, in order', () => {
    const index = new RecordIndex();
    const expected: [number, number, number][] = [];
    index.add(0, 0, 5);
    expected.push([0, 0, 5]);
    // Record 1 was lost: the next chunk starts at record 2, byte 100.
    let recordIndex = 2;
    let byteOffset = 100;
    for (const size of [16_383, 1, 40_000, 0, 3]) {
      const lengths = Array.from({ length: size }, (_, frame) => (frame * 7) % 300);
      const frames = frameTable(lengths);
      index.addFrames(frames, size, recordIndex, byteOffset);
      lengths.forEach((length, frame) =>
        expected.push([recordIndex + frame, byteOffset + frames[2 * frame]!, length]),
      );
      recordIndex += size;
      byteOffset += lengths.reduce((sum, length) => sum + length + 16, 0);
    }
    index.add(recordIndex, 2 ** 40, 1);
    expected.push([recordIndex, 2 ** 40, 1]);
    expect(index.count).toBe(expected.length);
    const held = Array.from({ length: index.count }, (_, row): [number, number, number] => [
      index.recordIndex(row),
      index.byteOffset(row),
      index.length(row),
    ]);
    expect(held).toEqual(expected);
    expect(index.rowOf(0)).toBe(0);
    expect(index.rowOf(1)).toBe(1); // lost: the next record's row
    expect(index.rowOf(2)).toBe(1);
    expect(index.rowOf(30_000)).toBe(29_999);
    expect(index.rowOf(Number.MAX_SAFE_INTEGER)).toBe(index.count);
  });

  it('says -1 (and length 0) for rows it does not hold', () => {
    const index = new RecordIndex();
    expect([index.recordIndex(0), index.byteOffset(0), index.length(0), index.rowOf(5)]).toEqual([
      -1, -1, 0, 0,
    ]);
    index.add(0, 0, 9);
    expect([index.recordIndex(1), index.byteOffset(-1), index.length(1.5)]).toEqual([-1, -1, 0]);
  });
});
