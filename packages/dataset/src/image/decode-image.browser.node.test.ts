// The web entry's decodeImage in a real Chromium (Debian's package through playwright-core): the
// module bundled from the sources with esbuild, fed PNGs written byte by byte, results compared with
// the pixels the test chose.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../../../../test-support/chromium.js';
import { noise, pngOf } from '../testing/png.js';

const executablePath = chromiumPath();
let browser: Browser;
let page: Page;

interface PageResult {
  readonly shape?: number[];
  readonly dtype?: string;
  readonly data?: number[];
  readonly code?: string;
  readonly position?: Record<string, unknown>;
  readonly message?: string;
}

/** Runs `decodeImage(images, options)` in the page. */
function decodeInPage(images: Uint8Array | Uint8Array[], options: object = {}): Promise<PageResult> {
  const single = images instanceof Uint8Array;
  const list = (single ? [images] : images).map((image) => Array.from(image));
  return page.evaluate(
    async ({ list, single, options }) => {
      const api = (
        globalThis as unknown as {
          tfpipeImages: {
            decodeImage: (
              input: unknown,
              options: object,
            ) => Promise<{ shape: number[]; dtype: string; data: ArrayLike<number> }>;
          };
        }
      ).tfpipeImages;
      const bytes = list.map((values) => Uint8Array.from(values));
      try {
        const tensor = await api.decodeImage(single ? bytes[0] : bytes, options);
        return { shape: [...tensor.shape], dtype: tensor.dtype, data: Array.from(tensor.data) };
      } catch (error) {
        const { code, position, message } = error as {
          code: string;
          position: Record<string, unknown>;
          message: string;
        };
        return { code, position: { ...position }, message };
      }
    },
    { list, single, options },
  );
}

describe.skipIf(executablePath === undefined)(
  'decodeImage in Chromium (createImageBitmap + OffscreenCanvas)',
  () => {
    beforeAll(async () => {
      const bundle = await build({
        entryPoints: [fileURLToPath(new URL('./decode-image-web.ts', import.meta.url))],
        bundle: true,
        format: 'iife',
        globalName: 'tfpipeImages',
        platform: 'browser',
        write: false,
      });
      browser = await chromium.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS });
      page = await browser.newPage();
      await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    const opaque = noise(5 * 7 * 4, 3).map((value, index) => (index % 4 === 3 ? 255 : value));
    const png = pngOf(7, 5, 4, opaque);

    it('decodes a PNG to exactly its pixels with 4, 3 and 1 channels (grey: BT.601 luma)', async () => {
      const four = await decodeInPage(png, { channels: 4 });
      expect(four.shape).toEqual([5, 7, 4]);
      expect(four.data).toEqual(Array.from(opaque));
      const three = await decodeInPage(png);
      expect(three.data).toEqual(Array.from(opaque).filter((_, index) => index % 4 !== 3));
      const one = await decodeInPage(png, { channels: 1, dtype: 'float32' });
      expect(one.dtype).toBe('float32');
      const luma = Array.from({ length: 35 }, (_, pixel) =>
        Math.fround(
          Math.round(
            0.299 * opaque[pixel * 4]! + 0.587 * opaque[pixel * 4 + 1]! + 0.114 * opaque[pixel * 4 + 2]!,
          ) / 255,
        ),
      );
      expect(one.data).toEqual(luma);
    });

    it('resizes as sharp does for nearest fill, contain and cover, and batches', async () => {
      const grey = pngOf(2, 2, 1, Uint8Array.of(0, 100, 200, 255));
      const filled = await decodeInPage(grey, {
        channels: 1,
        resize: { height: 4, width: 4, kernel: 'nearest' },
      });
      expect(filled.data).toEqual([0, 0, 100, 100, 0, 0, 100, 100, 200, 200, 255, 255, 200, 200, 255, 255]);
      const wide = pngOf(4, 2, 1, Uint8Array.of(10, 20, 30, 40, 50, 60, 70, 80));
      const contained = await decodeInPage(wide, {
        channels: 1,
        resize: { height: 4, width: 4, fit: 'contain', kernel: 'nearest' },
      });
      expect(contained.data).toEqual([0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 0, 0, 0, 0]);
      const covered = await decodeInPage(wide, {
        channels: 1,
        resize: { height: 2, width: 2, fit: 'cover', kernel: 'nearest' },
      });
      expect(covered.data).toEqual([20, 30, 60, 70]);
      const batch = await decodeInPage([grey, wide], { resize: { height: 3, width: 3 } });
      expect(batch.shape).toEqual([2, 3, 3, 3]);
    });

    it('fails with TfpipeErrors naming the image: bad bytes, a batch of different sizes', async () => {
      const garbage = await decodeInPage([png, Uint8Array.of(1, 2, 3)], {
        feature: 'image/encoded',
        origin: { file: 'a.tfrecord' },
      });
      expect(garbage.code).toBe('IMAGE_DECODE');
      expect(garbage.position).toEqual({ file: 'a.tfrecord', recordIndex: 1, field: 'image/encoded' });
      const mixed = await decodeInPage([png, pngOf(2, 2, 1, new Uint8Array(4))]);
      expect(mixed.code).toBe('FEATURE_TYPE');
      expect(mixed.message).toContain('image 0 has shape [5, 7, 3] but image 1 has shape [2, 2, 3]');
    });
  },
);
