import { describe, expect, it } from 'vitest';
import { hex } from './__fixtures__/helpers.js';
import { frameInPlace, frameRecord, frameRecordInto } from './frame-record.js';
import { fastCrc32c } from './native-crc32c.js';

describe('frameRecord', () => {
  it('frames an empty payload as 00000000 00000000 29039807 d8ea82a2 (FORMAT.md)', () => {
    expect(hex(frameRecord(new Uint8Array(0)))).toBe('000000000000000029039807d8ea82a2');
  });

  it('frames "hello" as 05000000 00000000 eab2043e 68656c6c6f bb1f1c19 (FORMAT.md)', () => {
    expect(hex(frameRecord(new TextEncoder().encode('hello')))).toBe(
      '0500000000000000eab2043e68656c6c6fbb1f1c19',
    );
  });

  it('writes the same frame into a caller buffer at an offset, with either CRC path', () => {
    const data = Uint8Array.from({ length: 1000 }, (_, index) => index & 0xff);
    const target = new Uint8Array(3 + data.length + 16);
    expect(frameRecordInto(data, target, 3, fastCrc32c)).toBe(target.length);
    expect(hex(target.subarray(3))).toBe(hex(frameRecord(data)));
  });

  it('frames a payload already encoded in place', () => {
    const target = new Uint8Array(5 + 16);
    target.set(new TextEncoder().encode('hello'), 12);
    expect(frameInPlace(target, 0, 5)).toBe(21);
    expect(hex(target)).toBe('0500000000000000eab2043e68656c6c6fbb1f1c19');
  });

  it('refuses a target without room for the frame', () => {
    expect(() => frameRecordInto(new Uint8Array(10), new Uint8Array(25), 0)).toThrow(RangeError);
  });
});
