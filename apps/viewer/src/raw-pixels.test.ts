import { bytes, int64, type Features } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { rawPixelShape, rgbaPixels } from './raw-pixels.js';

const sizes = (prefix: string, height: number, width: number, channels?: number): Features => ({
  [`${prefix}height`]: int64(height),
  [`${prefix}width`]: int64(width),
  ...(channels === undefined ? {} : { [`${prefix}channels`]: int64(channels) }),
});

describe('rawPixelShape', () => {
  it('takes the sizes beside the key first, then image/, then unprefixed, channels 1 when absent', () => {
    const features = { ...sizes('image/', 2, 3, 3), ...sizes('', 4, 4), ...sizes('mask/', 1, 5) };
    expect(rawPixelShape(features, 'image/raw', 18)).toEqual({ width: 3, height: 2, channels: 3 });
    expect(rawPixelShape(features, 'mask/raw', 5)).toEqual({ width: 5, height: 1, channels: 1 });
    expect(rawPixelShape(features, 'pixels', 18)).toEqual({ width: 3, height: 2, channels: 3 });
    expect(rawPixelShape(features, 'pixels', 16)).toEqual({ width: 4, height: 4, channels: 1 });
    expect(rawPixelShape({ ...sizes('', 2, 2), depth: int64(4) }, 'raw', 16)).toEqual({
      width: 2,
      height: 2,
      channels: 4,
    });
  });

  it('is undefined when the length does not match, channels are 2 or 5, or sizes are not one positive int64', () => {
    expect(rawPixelShape(sizes('', 2, 3, 3), 'raw', 17)).toBeUndefined();
    expect(rawPixelShape(sizes('', 2, 2, 2), 'raw', 8)).toBeUndefined();
    expect(rawPixelShape(sizes('', 1, 2, 5), 'raw', 10)).toBeUndefined();
    expect(rawPixelShape({ height: int64(2, 2), width: int64(2) }, 'raw', 4)).toBeUndefined();
    expect(rawPixelShape({ height: int64(-2), width: int64(-2) }, 'raw', 4)).toBeUndefined();
    expect(rawPixelShape({ height: bytes('2'), width: int64(2) }, 'raw', 4)).toBeUndefined();
    expect(rawPixelShape(sizes('', 2 ** 14, 2 ** 13), 'raw', 2 ** 27)).toBeUndefined();
    expect(rawPixelShape({}, 'raw', 0)).toBeUndefined();
  });
});

describe('rgbaPixels', () => {
  it('spreads grey, RGB and RGBA pixels to RGBA', () => {
    expect([...rgbaPixels(Uint8Array.of(7, 9), { width: 2, height: 1, channels: 1 })]).toEqual([
      7, 7, 7, 255, 9, 9, 9, 255,
    ]);
    expect([...rgbaPixels(Uint8Array.of(1, 2, 3), { width: 1, height: 1, channels: 3 })]).toEqual([
      1, 2, 3, 255,
    ]);
    expect([...rgbaPixels(Uint8Array.of(1, 2, 3, 4), { width: 1, height: 1, channels: 4 })]).toEqual([
      1, 2, 3, 4,
    ]);
  });
});
