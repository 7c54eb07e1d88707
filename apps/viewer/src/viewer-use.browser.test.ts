// The page in a real Chromium, as a user works with it: every key, both themes (the system's first,
// then remembered), the layout at 1280×800 and on a laptop screen, raw pixels that decode_raw would
// read, TFDS boxes, the first records of a large file shown while it is read, and a folder without
// TFRecords said so.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { bytes, encodeExample, example, float, int64 } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../../../test-support/chromium.js';
import { BOX_COLORS } from './image-view.js';
import { SCREENSHOTS, useViewerBrowser } from './testing/viewer-browser.js';
import { viewerPage } from './testing/viewer-page.js';
import { greyJpeg, gzipped, tabularFile, tfrecordFile, zlibbed } from './testing/tfrecord-files.js';

const executablePath = chromiumPath();
let page: Page;
const { pick, finished, showsRecord } = viewerPage(() => page);

/**
 * The RGBA of pixel (x, y) of the record view's canvas whose caption starts with `key` (else its
 * first), read from the canvas itself.
 */
const canvasPixel = (x: number, y: number, key = ''): Promise<number[]> =>
  page.evaluate(
    ({ x, y, key }) => {
      const figure = [...document.querySelectorAll('#record-view figure')].find((candidate) =>
        candidate.querySelector('figcaption')?.textContent?.startsWith(key),
      );
      const canvas = figure!.querySelector('canvas')!;
      return [...canvas.getContext('2d')!.getImageData(x, y, 1, 1).data];
    },
    { x, y, key },
  );

/** `#rrggbb` as [r, g, b]. */
const rgb = (hex: string): number[] => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));

describe.skipIf(executablePath === undefined)('tfpipe view in use, in Chromium', () => {
  useViewerBrowser(executablePath!, (opened) => {
    page = opened;
  });

  it('moves through the records with every key of the README, and switches the views with 1, 2, 3', async () => {
    await pick('keys.tfrecord', tabularFile(300).bytes);
    await finished();
    await showsRecord(0);
    await page.locator('#record-table').focus();
    const steps: [string, number][] = [
      ['j', 1],
      ['ArrowDown', 2],
      ['k', 1],
      ['ArrowUp', 0],
      ['End', 299],
      ['Home', 0],
    ];
    for (const [key, record] of steps) {
      await page.keyboard.press(key);
      await showsRecord(record);
    }
    const visibleRows = await page.evaluate(() => document.querySelectorAll('.record-row').length);
    await page.keyboard.press('PageDown');
    const down = Number(await page.getAttribute('.record-row.selected', 'data-row'));
    expect(down).toBeGreaterThan(5);
    expect(down).toBeLessThan(visibleRows + 1);
    await showsRecord(down);
    await page.keyboard.press('PageUp');
    await showsRecord(0);
    // g focuses the jump box (the key itself is not typed into it), f the filter.
    await page.keyboard.press('g');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('jump');
    await page.keyboard.type('250');
    await page.keyboard.press('Enter');
    await showsRecord(250);
    await page.locator('#record-table').focus();
    await page.keyboard.press('f');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter');
    expect(await page.inputValue('#filter')).toBe('');
    await page.locator('#record-table').focus();
    for (const [key, view] of [
      ['2', 'grid-view'],
      ['3', 'stats-view'],
      ['1', 'records-view'],
    ] as const) {
      await page.keyboard.press(key);
      await page.waitForSelector(`#${view}:not([hidden])`);
    }
    // o opens the file picker: a click on the page's (multiple) file input. The test watches for that
    // click and stops the dialog itself: waiting for Playwright's 'filechooser' event races the
    // interception it turns on, and under load the key won (a 30 s timeout in CI).
    await page.evaluate(() => {
      const input = document.getElementById('file-input') as HTMLInputElement;
      input.addEventListener('click', (event) => {
        event.preventDefault();
        document.body.dataset.pickerOpened = input.multiple ? 'multiple' : 'single';
      });
    });
    await page.keyboard.press('o');
    await page.waitForSelector('body[data-picker-opened]');
    expect(await page.getAttribute('body', 'data-picker-opened')).toBe('multiple');
  });

  it('takes the system’s dark or light theme, switches it with t and remembers the choice', async () => {
    const background = (): Promise<string> =>
      page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    const dark = await background();
    await page.keyboard.press('t');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    const light = await background();
    expect(light).not.toBe(dark);
    await page.reload(); // the system still says dark; the choice made stays
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    expect(await background()).toBe(light);
    await page.click('#theme-toggle');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await background()).toBe(dark);
  });

  for (const [width, height] of [
    [1280, 800],
    [1366, 768],
  ] as const) {
    it(`lays out at ${width}×${height}: nothing overflows, the table and the record side by side`, async () => {
      await page.setViewportSize({ width, height });
      await pick('layout.tfrecord', tabularFile(200).bytes);
      await finished();
      await showsRecord(0);
      const layout = await page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        return {
          scrollWidth: document.documentElement.scrollWidth,
          table: box('#record-table').toJSON() as DOMRect,
          record: box('#record-view').toJSON() as DOMRect,
          toolbar: [...document.querySelectorAll('.top-bar *, .browse-bar *')].map(
            (node) => node.getBoundingClientRect().right,
          ),
        };
      });
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      expect(Math.max(...layout.toolbar)).toBeLessThanOrEqual(width);
      expect(layout.table.width).toBeGreaterThan(300);
      expect(layout.record.width).toBeGreaterThan(300);
      expect(layout.table.right).toBeLessThanOrEqual(layout.record.left + 1);
      expect(layout.record.right).toBeLessThanOrEqual(width);
      // The table shows many rows at once, within the window.
      expect(await page.locator('.record-row').count()).toBeGreaterThan(10);
      expect(layout.table.top).toBeLessThan(height / 2);
      await page.screenshot({ path: new URL(`layout-${width}x${height}.png`, SCREENSHOTS).pathname });
    });
  }

  it('draws raw decode_raw pixels that height, width and channels describe, grey and RGB', async () => {
    // 3×2 RGB: red, green, blue / white, black, grey; and 2×2 grey (image/raw with image/* sizes).
    const rgbPixels = Uint8Array.of(255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128, 128, 128);
    const record = encodeExample(
      example({
        pixels: bytes(rgbPixels),
        height: int64(2),
        width: int64(3),
        channels: int64(3),
        'image/raw': bytes(Uint8Array.of(0, 60, 120, 240)),
        'image/height': int64(2),
        'image/width': int64(2),
        // Bytes whose length matches no shape stay bytes.
        'other/raw': bytes(Uint8Array.of(1, 2, 3)),
        'other/height': int64(2),
        'other/width': int64(2),
      }),
    );
    await pick('raw.tfrecord', tfrecordFile([record]).bytes);
    await finished();
    await page.waitForSelector('figure:nth-of-type(2)');
    expect((await page.locator('figcaption').allTextContents()).sort()).toEqual([
      'image/raw · raw pixels 2×2×1',
      'pixels · raw pixels 3×2×3',
    ]);
    expect(
      await page.locator('figure', { hasText: 'image/raw' }).locator('canvas').getAttribute('width'),
    ).toBe('2');
    expect(
      await page.locator('figure', { hasText: 'pixels ·' }).locator('canvas').getAttribute('width'),
    ).toBe('3');
    expect(await canvasPixel(0, 0, 'pixels')).toEqual([255, 0, 0, 255]);
    expect(await canvasPixel(1, 0, 'pixels')).toEqual([0, 255, 0, 255]);
    expect(await canvasPixel(2, 0, 'pixels')).toEqual([0, 0, 255, 255]);
    expect(await canvasPixel(0, 1, 'pixels')).toEqual([255, 255, 255, 255]);
    expect(await canvasPixel(1, 1, 'pixels')).toEqual([0, 0, 0, 255]);
    expect(await canvasPixel(2, 1, 'pixels')).toEqual([128, 128, 128, 255]);
    expect(await canvasPixel(1, 0, 'image/raw')).toEqual([60, 60, 60, 255]);
    expect(await canvasPixel(1, 1, 'image/raw')).toEqual([240, 240, 240, 255]);
  });

  it('draws TFDS boxes (objects/bbox rows of ymin, xmin, ymax, xmax on image) with their label', async () => {
    const record = encodeExample(
      example({
        image: bytes(await greyJpeg()),
        // ymin, xmin, ymax, xmax: the box spans x 80–240, y 60–180 of the 320×240 image.
        'objects/bbox': float(0.25, 0.25, 0.75, 0.75),
        'objects/label': int64(2),
      }),
    );
    await pick('tfds.tfrecord', tfrecordFile([record]).bytes);
    await finished();
    await page.waitForSelector('#record-view canvas.record-image');
    const color = rgb(BOX_COLORS[2]);
    const near = (pixel: number[]) =>
      pixel.slice(0, 3).every((value, at) => Math.abs(value - color[at]!) < 40);
    expect(near(await canvasPixel(80, 120))).toBe(true); // left edge
    expect(near(await canvasPixel(240, 120))).toBe(true); // right edge
    expect(near(await canvasPixel(160, 180))).toBe(true); // bottom edge
    const inside = await canvasPixel(160, 120);
    for (const channel of inside.slice(0, 3)) expect(Math.abs(channel - 128)).toBeLessThan(12);
    expect(near(await canvasPixel(81, 50))).toBe(true); // the label "2" sits on a tab above the box
    expect(await page.locator('.box-warning').count()).toBe(0);
  });

  it('shows the first records of a large file while it is still read, and reports how soon', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tfpipe-view-first-'));
    try {
      const path = join(folder, 'first.tfrecord');
      const block = tabularFile(4096).bytes;
      const handle = await open(path, 'w');
      const target = 128 * 2 ** 20;
      let written = 0;
      try {
        for (; written < target; written += block.length) await handle.write(block);
      } finally {
        await handle.close();
      }
      const small = join(folder, 'small.tfrecord');
      await writeFile(small, tabularFile(100).bytes);
      /**
       * Opens `file` by path; resolves to the milliseconds until its first row shows, and the status
       * at that moment, which the page itself records when the row appears (read afterwards, from
       * here, the status could already be the finished pass's).
       */
      const firstRow = async (file: string): Promise<[number, string]> => {
        await page.reload();
        await page.evaluate(() => {
          const seen = window as unknown as { statusAtFirstRow?: string };
          const observer = new MutationObserver(() => {
            const cell = document.querySelector('.record-row[data-row="0"] .cell-3');
            if (cell?.textContent?.includes('id=0') !== true) return;
            seen.statusAtFirstRow = document.querySelector('#status')?.textContent ?? '';
            observer.disconnect();
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        });
        const started = performance.now();
        await page.setInputFiles('#file-input', file);
        await page.waitForSelector('.record-row[data-row="0"] .cell-3:has-text("id=0")');
        const elapsed = performance.now() - started;
        const status = await page.evaluate(
          () => (window as unknown as { statusAtFirstRow?: string }).statusAtFirstRow ?? '',
        );
        return [elapsed, status];
      };
      const [smallMs] = await firstRow(small);
      await finished();
      const [largeMs, stillReading] = await firstRow(path);
      const started = performance.now();
      const status = await finished(120_000);
      console.log(
        `first table row: ${smallMs.toFixed(0)} ms for a 100-record file, ${largeMs.toFixed(0)} ms for a ` +
          `${(written / 1e6).toFixed(0)} MB one (then ${stillReading}), whose pass ended ` +
          `${(performance.now() - started).toFixed(0)} ms later: ${status}`,
      );
      // Shown before the pass ended: how soon does not wait for the file's size.
      expect(stillReading).toMatch(/^Verifying: /);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('detects gzip and zlib from the first bytes, whatever the file is called', async () => {
    await pick('no-suffix.tfrecord', gzipped(tabularFile(5).bytes));
    expect(await finished()).toMatch(/^5 records \(gzip\), every CRC verified/);
    await pick('misnamed.tfrecord.gz', zlibbed(tabularFile(3).bytes));
    expect(await finished()).toMatch(/^3 records \(zlib\), every CRC verified/);
    await pick('plain.tfrecord.zz', tabularFile(2).bytes);
    expect(await finished()).toMatch(/^2 records, every CRC verified/);
  });

  it('says a folder holds no TFRecord file when it has only an index, a manifest and hidden files', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tfpipe-view-empty-'));
    try {
      await writeFile(join(folder, 'train.tfrecord.idx'), '0 100\n');
      await writeFile(join(folder, 'train.manifest.json'), '{}');
      await writeFile(join(folder, '.DS_Store'), 'x');
      await page.setInputFiles('#folder-input', folder);
      await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('No '));
      expect(await page.textContent('#status')).toBe(
        'No TFRecord file among the 3 files picked: index files (.idx), manifests and hidden files are not read as records.',
      );
      expect(await page.isHidden('#problems')).toBe(true);
      expect(await page.getAttribute('#progress', 'value')).toBe('0');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
