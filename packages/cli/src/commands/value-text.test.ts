import { describe, expect, test } from 'vitest';
import { float32Text } from './value-text.js';

/** Significant digits of a decimal text. */
function digitsOf(text: string): number {
  return text.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '')
    .length;
}

describe('float32Text', () => {
  test('known values print as their shortest float32 decimal', () => {
    expect(
      [0.1, 1 / 3, 16_777_217, 3.4028234663852886e38, 1e-45, -2.5, 0, -0, NaN, -Infinity].map((value) =>
        float32Text(Math.fround(value)),
      ),
    ).toEqual([
      '0.1',
      '0.33333334',
      '16777216',
      '3.4028235e+38',
      '1e-45',
      '-2.5',
      '0',
      '-0',
      'NaN',
      '-Infinity',
    ]);
  });

  test('every one of 100k float32 bit patterns reads back exactly, and one digit fewer never does', () => {
    const view = new DataView(new ArrayBuffer(4));
    let state = 0x9e3779b9;
    const failures: string[] = [];
    for (let index = 0; index < 100_000; index++) {
      // xorshift32: patterns across every exponent, subnormals included.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      view.setUint32(0, state >>> 0);
      const value = view.getFloat32(0);
      if (!Number.isFinite(value)) continue;
      const text = float32Text(value);
      if (Math.fround(Number(text)) !== value) failures.push(`${text} does not read back`);
      const digits = digitsOf(text);
      if (digits > 1 && Math.fround(Number(value.toPrecision(digits - 1))) === value)
        failures.push(`${text} is not the shortest`);
    }
    expect(failures).toEqual([]);
  });
});
