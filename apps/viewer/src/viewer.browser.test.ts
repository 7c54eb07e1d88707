// The page in a real Chromium (Debian's `chromium` through playwright-core): files opened through the
// file input and through a drop, plain, gzip, zlib and corrupt; an image with its boxes checked by pixel.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  bytes,
  encodeExample,
  encodeSequenceExample,
  example,
  float,
  int64,
  sequenceExample,
} from '@tfpipe/core';
import { writeRecordHeader } from '@tfpipe/sink-tfrecord/web';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../../../test-support/chromium.js';
import { processTreeRss, watchPeakRss } from '../../../test-support/process-tree.js';
import { SCREENSHOTS, useViewerBrowser } from './testing/viewer-browser.js';
import { viewerPage } from './testing/viewer-page.js';
import {
  LARGE_FILE_BYTES,
  bmp2x2,
  writeLargeFile,
  detectionRecord,
  greyJpeg,
  gzipped,
  tabularFile,
  tfrecordFile,
  zlibbed,
} from './testing/tfrecord-files.js';

const executablePath = chromiumPath();
/** The 2 GB+ file test writes and streams 2.25 GiB: it runs in CI or when TFPIPE_LARGE_FILE_TEST=1. */
const largeFileTest = process.env.CI === 'true' || process.env.TFPIPE_LARGE_FILE_TEST === '1';
if (executablePath !== undefined && !largeFileTest)
  console.warn('skipping the 2 GB+ file test: set TFPIPE_LARGE_FILE_TEST=1 (CI runs it)');
let page: Page;
/** What the page's Content-Security-Policy blocked (it must block nothing the page does). */
let cspViolations: string[] = [];

const { pick, drop, finished, showsRecord, jump, recordText } = viewerPage(() => page);

describe.skipIf(executablePath === undefined)('tfpipe view page in Chromium', () => {
  const session = useViewerBrowser(executablePath!, (opened) => {
    page = opened;
    cspViolations = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  });

  const table = tabularFile(12);
  const badLength = table.bytes.slice();
  badLength[table.offsets[5]!]! ^= 0x01; // record 5's length, so its length CRC fails
  const cases = [
    {
      name: 'plain.tfrecord',
      bytes: table.bytes,
      status: /^12 records, every CRC verified/,
      problem: undefined,
    },
    {
      name: 'plain.tfrecord.gz',
      bytes: gzipped(table.bytes),
      status: /^12 records \(gzip\), every CRC/,
      problem: undefined,
    },
    {
      name: 'length.tfrecord',
      bytes: badLength,
      status: /^\d+ records, 1 problem \(/,
      problem: `record 5, byte ${table.offsets[5]}: RECORD_CRC`,
    },
  ];
  for (const how of ['the file input', 'a drop'] as const) {
    for (const file of cases) {
      it(`opens ${file.name} through ${how}`, async () => {
        await (how === 'a drop' ? drop : pick)(file.name, file.bytes);
        expect(await finished()).toMatch(file.status);
        await showsRecord(0);
        if (file.problem === undefined) expect(await page.isHidden('#problems')).toBe(true);
        else expect(await page.textContent('#problem-list')).toContain(file.problem);
      });
    }
  }

  it('opens a plain file through the file input and shows every feature exactly', async () => {
    await pick('table.tfrecord', tabularFile(500).bytes);
    expect(await finished()).toMatch(/^500 records, every CRC verified/);
    await page.waitForFunction(() =>
      document.querySelector('.record-row[data-row="0"] .cell-3')?.textContent?.includes('id=0'),
    );
    const text = await recordText();
    expect(text).toContain('Record 0');
    expect(text).toContain('9007199254740993'); // an int64 past 2^53, not rounded
    expect(text).toContain('0.1, 0.5'); // float32 0.1 as protobuf prints it
    expect(text).toContain('"row 0"');
    expect(text).toContain('0x000102ff'); // bytes that are not text, as hex
    expect(text).toContain('(20 values)'); // a long list folded
    // Keyboard: next record, then a jump far down the virtualized table.
    await page.locator('#record-table').focus();
    await page.keyboard.press('j');
    await showsRecord(1);
    expect(await recordText()).toContain('9007199254740994');
    await jump(437);
    await showsRecord(437);
    expect(await page.locator('.record-row').count()).toBeLessThan(60); // only the rows in view exist
    await page.waitForSelector('.record-row.selected[data-row="437"]');
    await page.screenshot({ path: new URL('table-light.png', SCREENSHOTS).pathname });
    expect(cspViolations).toEqual([]);
  });

  it('opens a gzip file dropped on the page and a zlib file through the input', async () => {
    await drop('table.tfrecord.gz', gzipped(tabularFile(40).bytes));
    expect(await finished()).toMatch(/^40 records \(gzip\), every CRC verified/);
    await page.keyboard.press('End');
    await showsRecord(39);
    await pick('table.tfrecord.zz', zlibbed(tabularFile(7).bytes));
    expect(await finished()).toMatch(/^7 records \(zlib\), every CRC verified/);
  });

  it('lists a corrupt record with its number and byte offset and keeps the good ones browsable', async () => {
    const file = tabularFile(10);
    const damaged = file.bytes.slice();
    damaged[file.offsets[3]! + 20]! ^= 0xff; // a byte of record 3's data
    await drop('damaged.tfrecord', damaged);
    expect(await finished()).toMatch(/^9 records, 1 problem \(/);
    const problems = await page.textContent('#problem-list');
    expect(problems).toContain(`record 3, byte ${file.offsets[3]}: RECORD_CRC`);
    expect(problems).toContain('data CRC mismatch');
    expect(problems).toContain(`lost bytes ${file.offsets[3]}–${file.offsets[4]}`);
    await jump(3);
    await showsRecord(4);
    expect(await recordText()).toContain('"row 4"');
    // Jumping goes by the record's index in the file, not by table row (row 7 holds record 8).
    await jump(7);
    await showsRecord(7);
    await page.screenshot({ path: new URL('corrupt.png', SCREENSHOTS).pathname });
  });

  it('shows a truncated gzip file as a problem with the records before it', async () => {
    const whole = gzipped(tabularFile(200).bytes);
    await pick('cut.tfrecord.gz', whole.subarray(0, Math.floor(whole.length * 0.6)));
    const status = await finished();
    expect(status).toMatch(/ \(gzip\), [1-9]\d* problems?/);
    expect(Number(/^(\d+) records/.exec(status)![1])).toBeGreaterThan(0);
    expect(await page.textContent('#problem-list')).toMatch(/byte \d+: (DECOMPRESS|RECORD_TRUNCATED)/);
  });

  it('draws the TF Object Detection boxes with their class text on the image', async () => {
    const image = await greyJpeg();
    const file = tfrecordFile([
      detectionRecord(image, [[0.25, 0.25, 0.75, 0.75]], ['cat']),
      detectionRecord(image, [[0.5, 0.6, 1.2, 0.4]], ['dog']),
    ]);
    await page.click('#theme-toggle'); // the system's light theme → dark
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await pick('boxes.tfrecord', file.bytes);
    await finished();
    const canvas = page.locator('canvas.record-image');
    await canvas.waitFor();
    expect(await recordText()).toContain('image/encoded · image/jpeg');
    const shot = await canvas.screenshot({ path: new URL('boxes.png', SCREENSHOTS).pathname });
    const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const scale = info.width / 320;
    const pixel = (x: number, y: number): number[] => {
      const at = (Math.round(y * scale) * info.width + Math.round(x * scale)) * 3;
      return [data[at]!, data[at + 1]!, data[at + 2]!];
    };
    // Box 1 of label 1 is drawn in BOX_COLORS[1], #00e5ff: its left edge at x = 80, its inside grey.
    const edge = pixel(80, 150);
    expect(edge[0]).toBeLessThan(40);
    expect(edge[1]).toBeGreaterThan(200);
    expect(edge[2]).toBeGreaterThan(220);
    const inside = pixel(160, 150);
    for (const channel of inside) expect(Math.abs(channel - 128)).toBeLessThan(12);
    // The class text sits on a label of the box's colour above its top-left corner.
    expect(pixel(82, 58)[1]).toBeGreaterThan(200);
    await page.screenshot({ path: new URL('boxes-dark.png', SCREENSHOTS).pathname });
    expect(cspViolations).toEqual([]);
    // The second record's box is out of range and upside down: warned about.
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('.box-warning');
    const warnings = await page.locator('.box-warning').allTextContents();
    expect(warnings).toEqual(['box 0 lies outside [0, 1]', 'box 0 has min > max']);
  });

  it('refuses a hostile length field (1 TiB, its length CRC valid) without allocating it', async () => {
    const header = new Uint8Array(12);
    writeRecordHeader(header, 0, 2 ** 40);
    const file = Buffer.concat([header, new Uint8Array(20), tabularFile(1).bytes]);
    await pick('huge-length.tfrecord', file);
    // A length whose CRC holds is a real frame: the reader gives up the rest, as tfpipe verify does.
    expect(await finished()).toMatch(/^0 records, 1 problem \(/);
    const problems = await page.textContent('#problem-list');
    expect(problems).toContain('record 0, byte 0: RECORD_TOO_LARGE');
    expect(problems).toContain(`lost bytes 0–${file.length}`);
  });

  it('refuses to connect anywhere but its own origin (nothing leaves the machine)', async () => {
    // The test server under another name is another origin. CORS alone would also hide the answer, but
    // only the policy refuses to send the request, and Chromium reports it as a violation.
    const elsewhere = session.url.replace('127.0.0.1', 'localhost');
    const outcome = await page.evaluate(
      (target) =>
        fetch(target).then(
          () => 'sent',
          () => 'refused',
        ),
      elsewhere,
    );
    expect(outcome).toBe('refused');
    expect(cspViolations.join('\n')).toContain("connect-src 'self'");
    expect(await page.evaluate(() => fetch('index.html').then((response) => response.status))).toBe(200);
    expect(await page.textContent('.privacy')).toContain('nothing leaves the machine');
  });

  it('shows PNG, WebP, GIF and BMP images, and says which image bytes do not decode', async () => {
    const grey = { create: { width: 8, height: 8, channels: 3 as const, background: '#808080' } };
    const images = await Promise.all([
      sharp(grey).png().toBuffer(),
      sharp(grey).webp().toBuffer(),
      sharp(grey).gif().toBuffer(),
    ]);
    const record = encodeExample(
      example({
        'image/encoded': bytes(...images, bmp2x2()),
        thumbnail: bytes(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3)),
      }),
    );
    await pick('formats.tfrecord', tfrecordFile([record]).bytes);
    await finished();
    await page.waitForSelector('figure:nth-of-type(5)');
    const captions = await page.locator('figcaption').allTextContents();
    expect(captions).toEqual([
      'image/encoded · image/png',
      'image/encoded[1] · image/webp',
      'image/encoded[2] · image/gif',
      'image/encoded[3] · image/bmp',
      'thumbnail · image/jpeg',
    ]);
    expect(await page.locator('canvas.record-image').count()).toBe(4);
    expect(await page.textContent('figure:nth-of-type(5) .warning')).toContain(
      'image/jpeg bytes that do not decode',
    );
  });

  it('shows a SequenceExample’s feature lists step by step', async () => {
    const record = encodeSequenceExample(
      sequenceExample(
        { length: int64(2) },
        { tokens: [int64(7, 8), int64(9)], scores: [float(0.25), float(0.5)] },
      ),
    );
    await pick('sequence.tfrecord', tfrecordFile([record]).bytes);
    await finished();
    await showsRecord(0);
    const text = await recordText();
    expect(text).toContain('SequenceExample');
    expect(text).toContain('Feature list tokens (steps)');
    expect(await page.locator('table.feature-table').count()).toBe(3); // context, tokens, scores
    const tokens = page.locator('table.feature-table', { hasText: 'Feature list tokens' });
    expect(await tokens.locator('tbody tr').allInnerTexts()).toEqual(['0\tint64\t2\t7, 8', '1\tint64\t1\t9']);
  });

  it.skipIf(!largeFileTest)(
    'streams a 2.25 GiB file with its memory bounded, and shows a damaged record past 2^31 by offset',
    async () => {
      const path = join(tmpdir(), `tfpipe-view-large-${process.pid}.tfrecord`);
      try {
        const file = await writeLargeFile(path);
        const rssBefore = processTreeRss(process.pid);
        const rss = watchPeakRss(process.pid);
        const started = performance.now();
        await page.setInputFiles('#file-input', path); // by path: the test never holds the file either
        const status = await finished(240_000);
        const seconds = (performance.now() - started) / 1000;
        const peak = rss.stop();
        expect(status).toMatch(
          new RegExp(`^${(file.records - 1).toLocaleString('en')} records, 1 problem \\(`),
        );
        expect(await page.textContent('#problem-list')).toContain(
          `record ${file.damagedIndex}, byte ${file.damagedOffset}: RECORD_CRC`,
        );
        // The last record, read back by its offset past 2^31.
        await jump(file.records - 1);
        await showsRecord(file.records - 1);
        expect(await recordText()).toContain(`byte ${file.lastOffset}`);
        const heap = await page.evaluate(
          () => (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize,
        );
        const mb = (bytes: number | undefined): string =>
          bytes === undefined ? '?' : `${(bytes / 1e6).toFixed(0)} MB`;
        console.log(
          `2.25 GiB file: verified in ${seconds.toFixed(1)} s (${(LARGE_FILE_BYTES / 1e6 / seconds).toFixed(0)} MB/s); ` +
            `Chromium's RSS ${mb(rssBefore)} before, peak ${mb(peak)}; the page's JS heap after: ${mb(heap)}`,
        );
        if (rssBefore !== undefined && peak !== undefined) expect(peak - rssBefore).toBeLessThan(600e6);
      } finally {
        await rm(path, { force: true });
      }
    },
    300_000,
  );

  it('says so when a request of the page fails in the worker (the picked file changed on disk)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tfpipe-view-changed-'));
    try {
      const path = join(folder, 'changing.tfrecord');
      await writeFile(path, tabularFile(30).bytes);
      await page.setInputFiles('#file-input', path);
      expect(await finished()).toMatch(/^30 records, every CRC verified/);
      await showsRecord(0);
      // The browser's File is a snapshot: once the file changes on disk, reading it fails, and so does
      // the worker's request for the next record, which must reach the page rather than hang there.
      await writeFile(path, tabularFile(31).bytes);
      await page.keyboard.press('j');
      await page.waitForSelector('#request-error:not([hidden])');
      expect(await page.textContent('#request-error')).toMatch(/^Could not read row 1: \S/);
      const failure = (await page.textContent('#request-error'))!.replace(/^Could not read row 1: /, '');
      // The page still answers: a filter, which reads every record, fails with the same message.
      await page.fill('#filter', 'id >= 0');
      await page.click('#filter-form button[type="submit"]');
      await page.waitForSelector('#selection-info[data-state="error"]');
      expect(await page.textContent('#selection-info')).toBe(failure);
      expect(failure).toContain('could not be read');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('shows a payload that is not an Example as a message, not a frozen page', async () => {
    await pick(
      'junk.tfrecord',
      tfrecordFile([new Uint8Array([0xff, 0xff, 0xff]), new Uint8Array([0x0a, 0x00])]).bytes,
    );
    expect(await finished()).toMatch(/^2 records, every CRC verified/);
    expect(await recordText()).toContain('This payload is not an Example');
    await page.keyboard.press('j');
    await showsRecord(1);
    expect(await recordText()).toContain('Example');
  });
});
