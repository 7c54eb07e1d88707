// Test helpers: images generated with sharp, written to a temporary directory.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import type { Feature } from '@tfpipe/core';
import { afterEach, beforeEach } from 'vitest';

/** Gives `use` a fresh temporary directory before each test of the file, and removes it after. */
export function eachTemporaryDirectory(use: (dir: string) => void): void {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tfpipe-images-'));
    use(dir);
  });
  afterEach(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));
}

/** A box in pixels. */
export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A black image with a white rectangle at `box` (stored-pixel coordinates), encoded as `format`,
 * optionally tagged with an EXIF orientation.
 */
export async function markerImage(
  width: number,
  height: number,
  box: PixelBox,
  format: 'jpeg' | 'png' | 'webp',
  orientation?: number,
): Promise<Buffer> {
  let image = sharp({ create: { width, height, channels: 3, background: '#000000' } }).composite([
    {
      input: { create: { width: box.width, height: box.height, channels: 3, background: '#ffffff' } },
      left: box.left,
      top: box.top,
    },
  ]);
  image =
    format === 'jpeg'
      ? image.jpeg({ quality: 95 })
      : format === 'png'
        ? image.png()
        : image.webp({ lossless: true });
  if (orientation !== undefined) image = image.withMetadata({ orientation });
  return image.toBuffer();
}

/** A noisy photo-like RGB image (gradient plus noise), to make JPEG sizes realistic. */
export async function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761 + 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = state & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A solid image of `channels` (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA). */
export async function solid(
  width: number,
  height: number,
  channels: 1 | 2 | 3 | 4,
  format: 'jpeg' | 'png' | 'webp',
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * channels, 0x80);
  let image = sharp(pixels, { raw: { width, height, channels } });
  if (channels <= 2) image = image.toColourspace('b-w'); // else sharp writes grey as sRGB
  return (format === 'jpeg' ? image.jpeg() : format === 'png' ? image.png() : image.webp()).toBuffer();
}

/** Writes `data` at `dir/relative`, creating folders. */
export async function put(dir: string, relative: string, data: Uint8Array | string): Promise<string> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}

/** The bounding box (pixels, exclusive right/bottom) of pixels brighter than 128 in a decoded image. */
export async function brightBox(
  encoded: Uint8Array,
): Promise<{ box: PixelBox; width: number; height: number }> {
  const { data, info } = await sharp(encoded).greyscale().raw().toBuffer({ resolveWithObject: true });
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! > 128) {
        left = Math.min(left, x);
        top = Math.min(top, y);
        right = Math.max(right, x + 1);
        bottom = Math.max(bottom, y + 1);
      }
    }
  }
  return {
    box: { left, top, width: right - left, height: bottom - top },
    width: info.width,
    height: info.height,
  };
}

/** The values of a feature as plain JS values (bytes as UTF-8 strings unless `raw`). */
export function values(feature: unknown, raw = false): unknown[] {
  const typed = feature as Feature;
  if (typed.kind === 'bytes') return typed.value.map((item) => (raw ? item : new TextDecoder().decode(item)));
  if (typed.kind === 'int64') return typed.value.map(Number);
  return [...typed.value];
}

/** The single value of a feature. */
export function value(feature: unknown): unknown {
  return values(feature)[0];
}

/** All chunks of a stream (core's `collect`). */
export { collect as collectAll } from '@tfpipe/core/testing';
