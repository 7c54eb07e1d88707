import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyBytes } from './copy-bytes.js';

/** `length` bytes counting up from `seed`, inside a larger buffer at `byteOffset`. */
function bytesAt(byteOffset: number, length: number, seed: number): Uint8Array {
  const view = new Uint8Array(new ArrayBuffer(byteOffset + length), byteOffset, length);
  for (let index = 0; index < length; index++) view[index] = (seed + index * 7) & 0xff;
  return view;
}

function firstDifference(left: Uint8Array, right: Uint8Array): number {
  if (left.length !== right.length) return Math.min(left.length, right.length);
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return index;
  return -1;
}

describe('copyBytes', () => {
  it('copies as set does, into plain and shared memory, at every alignment and length', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 15 }),
        fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 65_000, max: 200_000 })),
        fc.integer({ min: 0, max: 40 }),
        (shared, sourceOffset, targetViewOffset, length, offset) => {
          const size = targetViewOffset + offset + length + 9;
          const memory = shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
          const target = new Uint8Array(memory, targetViewOffset);
          const expected = new Uint8Array(target.length);
          target.fill(0xee);
          expected.fill(0xee);
          const source = bytesAt(sourceOffset, length, sourceOffset + length);
          copyBytes(target, source, offset);
          expected.set(source, offset);
          // Every byte: the copied ones and the untouched ones around them.
          expect(firstDifference(target, expected)).toBe(-1);
        },
      ),
      { seed: 17, numRuns: 400 },
    );
  });

  it('refuses a source that does not fit, as set does', () => {
    const target = new Uint8Array(new SharedArrayBuffer(100));
    expect(() => copyBytes(target, bytesAt(3, 80, 1), 30)).toThrow(RangeError);
    expect(target.every((byte) => byte === 0)).toBe(true);
  });
});
