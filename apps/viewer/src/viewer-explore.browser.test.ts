// The exploring half of the page in a real Chromium: schema and statistics with the reader specs,
// filter expressions and the export of the records shown, seeded samples and every k-th record, the
// image grid, and shard folders with their .idx files and manifest.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FeatureStatsCollector,
  decodeExample,
  int64,
  example,
  sampleRows,
  tensorflowSpec,
  daliSpec,
} from '@tfpipe/core';
import { specTypeScriptFromStats } from '@tfpipe/dataset';
import { readTfrecordStream, iterate } from '@tfpipe/sink-tfrecord/web';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../../../test-support/chromium.js';
import {
  detectionRecord,
  exploreFile,
  greyJpeg,
  gzipped,
  tabularFile,
  tfrecordFile,
  type ExploreValues,
} from './testing/tfrecord-files.js';
import { STREAM_CHUNK_BYTES } from './byte-source.js';
import type { Route } from './testing/serve-bundle.js';
import { SCREENSHOTS, useViewerBrowser } from './testing/viewer-browser.js';
import { viewerPage } from './testing/viewer-page.js';

const executablePath = chromiumPath();
const RECORDS = 100;

let page: Page;
const { pick, finished, showsRecord } = viewerPage(() => page);

/** Bars of the histogram of `feature`'s `kind` (`values` or `lengths`) as [low, high, count]. */
async function bars(feature: string, kind: string): Promise<[number, number, number][]> {
  const titles = await page
    .locator(`.feature-card[data-feature="${feature}"] .histogram-${kind} .bar`)
    .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).title));
  return titles.map((title) => {
    const [, low, high, count] = /^\[(\S+), (\S+)\): (\d+)$/.exec(title)!;
    return [Number(low), Number(high), Number(count)];
  });
}

/** Checks every bar against the values it covers (counted here from the generated records). */
function expectBarsToCount(found: [number, number, number][], values: readonly number[]): void {
  expect(found.length).toBeGreaterThan(0);
  expect(found.length).toBeLessThanOrEqual(32);
  for (const [low, high, count] of found) {
    expect([low, high, count]).toEqual([
      low,
      high,
      values.filter((value) => value >= low && value < high).length,
    ]);
  }
  expect(found.reduce((sum, [, , count]) => sum + count, 0)).toBe(values.length);
}

async function cardText(feature: string): Promise<string> {
  return (await page.textContent(`.feature-card[data-feature="${feature}"]`)) ?? '';
}

/** Table rows' record indexes (the rows in view). */
async function tableIndexes(): Promise<number[]> {
  const cells = await page.locator('.record-row[data-row] .cell-0').allTextContents();
  return cells.map(Number);
}

/** Applies the selection of `form` and waits for the line saying what is shown. */
async function apply(form: string, state = 'selected'): Promise<string> {
  await page.evaluate(() => delete document.querySelector<HTMLElement>('#selection-info')!.dataset.state);
  await page.click(`#${form} button[type="submit"]`);
  await page.waitForSelector(`#selection-info[data-state="${state}"]`);
  return (await page.textContent('#selection-info')) ?? '';
}

/** Clicks Export and resolves to the downloaded file's name and bytes. */
async function exported(): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** The payloads of a TFRecord file read back with the sink's reader (every CRC checked, errors fail). */
async function payloadsOf(bytes: Uint8Array): Promise<Uint8Array[]> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes));
      controller.close();
    },
  });
  const payloads: Uint8Array[] = [];
  for await (const record of iterate(readTfrecordStream(stream, { file: 'exported', onError: 'fail' })))
    payloads.push(record.data.slice());
  return payloads;
}

/** Writes `records` Examples as two shards `train-0000N-of-00002` with their .idx files and manifest. */
async function writeShards(directory: string, records: number): Promise<void> {
  const sink = tfrecordSink({ directory, prefix: 'train', shards: 2, index: true, manifest: true });
  const writer = sink.getWriter();
  for (let id = 0; id < records; id++) await writer.write(example({ id: int64(id) }));
  await writer.close();
}

function concat(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((part) => Buffer.from(part)));
}

describe.skipIf(executablePath === undefined)('tfpipe view: exploring in Chromium', () => {
  let file: Awaited<ReturnType<typeof exploreFile>>;
  /** Each record's frame as the file holds it. */
  let frames: Uint8Array[];

  beforeAll(async () => {
    file = await exploreFile(RECORDS);
    frames = file.offsets.map((offset, index) =>
      file.bytes.subarray(offset, file.offsets[index + 1] ?? file.bytes.length),
    );
  });
  /** A file served as `tfpipe view` serves one (`files.json`, byte ranges); bytes past `held` wait. */
  let served: { name: string; bytes: Uint8Array; held: number; release: Promise<void> } | undefined;
  const route: Route = (path, request, response) => {
    const file = served;
    if (file === undefined) return false;
    if (path === 'files.json') {
      const list = [{ name: file.name, url: file.name, size: file.bytes.length }];
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
      return true;
    }
    if (path !== file.name) return false;
    const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '') ?? [];
    const start = Number(first);
    const send = (): void => {
      response.writeHead(206).end(Buffer.from(file.bytes.subarray(start, Number(last) + 1)));
    };
    if (start >= file.held) void file.release.then(send);
    else send();
    return true;
  };
  const session = useViewerBrowser(
    executablePath!,
    (opened) => {
      page = opened;
    },
    route,
  );

  it('profiles every feature in one pass, with the reader specs of tfpipe schema', async () => {
    await pick('explore.tfrecord', file.bytes);
    await finished();
    await page.keyboard.press('3');
    await page.waitForSelector('.feature-card[data-feature="score"]');
    const values = file.values;
    expect(await page.textContent('.stats-summary')).toBe(`${RECORDS} records (Example), 7 features`);

    // Presence and list lengths: tags is missing from every 5th record and has 0–3 values.
    const tagged = values.filter((value) => value.tags !== undefined);
    expect(await cardText('tags')).toContain(
      `present in ${tagged.length} of ${RECORDS} (${(tagged.length / RECORDS) * 100}%) · 0–3 values each`,
    );
    expectBarsToCount(
      await bars('tags', 'lengths'),
      tagged.map((value) => value.tags!.length),
    );

    // Numbers: exact min, max and mean, and every histogram bar against the values it covers.
    const mean = (numbers: number[]): string =>
      String(Number((numbers.reduce((sum, value) => sum + value, 0) / numbers.length).toPrecision(6)));
    const labels = values.map((value) => value.label);
    const scores = values.map((value) => value.score);
    expect(await cardText('label')).toContain(`min 0 · max 2 · mean ${mean(labels)}`);
    expect(await cardText('score')).toContain(
      `min -3 · max ${(RECORDS - 1) * 0.25 - 3} · mean ${mean(scores)}`,
    );
    expectBarsToCount(await bars('label', 'values'), labels);
    expectBarsToCount(await bars('score', 'values'), scores);

    // Top values: exact while few are distinct; ranges (true count inside) once more than 64 are.
    const top = async (feature: string): Promise<string[][]> =>
      page
        .locator(`.feature-card[data-feature="${feature}"] .top-top-values tr`)
        .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? '')));
    const kinds = (kind: string): number => values.filter((value) => value.kind === kind).length;
    expect(await top('kind')).toEqual([
      ['"cat"', String(kinds('cat'))],
      ['"bird"', String(kinds('bird'))],
      ['"dog"', String(kinds('dog'))],
    ]);
    for (const [value, shown] of await top('name')) {
      const [low, high = low] = shown!.split('–').map(Number);
      const truth = values.filter((entry: ExploreValues) => JSON.stringify(entry.name) === value).length;
      expect(low! <= truth && truth <= high!).toBe(true);
    }

    // Images: formats from their magic bytes, sizes from their headers.
    const pngs = values.filter((value) => value.image === 'png').length;
    const image = await cardText('image/encoded');
    expect(image).toContain(`image/png ${pngs} · image/jpeg ${RECORDS - pngs}`);
    expect(
      await page.locator('.feature-card[data-feature="image/encoded"] .top-sizes tr').allInnerTexts(),
    ).toEqual([`16×12\t${pngs}`, `20×10\t${RECORDS - pngs}`]);

    // The reader specs are core's and the dataset's, computed here from the same records.
    const collector = new FeatureStatsCollector();
    for (const payload of file.payloads) collector.add(decodeExample(payload));
    const stats = collector.result();
    const spec = async (name: string): Promise<string> => {
      await page.click(`.spec-bar [data-spec="${name}"]`);
      await page.waitForSelector(`.spec-code[data-spec="${name}"]`);
      return (await page.textContent('.spec-code')) ?? '';
    };
    expect(await spec('tensorflow')).toBe(
      tensorflowSpec(stats, { files: ['explore.tfrecord'], compression: 'none' }),
    );
    expect(await spec('dali')).toBe(daliSpec(stats, { files: ['explore.tfrecord'] }));
    expect(await spec('typescript')).toBe(specTypeScriptFromStats(stats));
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.url).origin });
    await page.click('.copy-spec');
    await page.waitForSelector('.copy-spec:text("Copied")');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(specTypeScriptFromStats(stats));
    await page.screenshot({ path: new URL('stats-light.png', SCREENSHOTS).pathname });
    await page.click('#theme-toggle');
    await page.screenshot({ path: new URL('stats-dark.png', SCREENSHOTS).pathname });
  });

  it('filters by a pipeline expression and exports the records shown, byte for byte', async () => {
    await pick('explore.tfrecord', file.bytes);
    await finished();
    await page.fill('#filter', 'label == 1 and score > 0 and kind != "cat"');
    const kept = file.values.filter((value) => value.label === 1 && value.score > 0).map((value) => value.id);
    expect(await apply('filter-form')).toBe(
      `${kept.length} of ${RECORDS} records match label == 1 and score > 0 and kind != "cat"`,
    );
    await showsRecord(kept[0]!);
    expect(await tableIndexes()).toEqual(kept.slice(0, (await tableIndexes()).length));
    await page.screenshot({ path: new URL('filter-light.png', SCREENSHOTS).pathname });
    const download = await exported();
    expect(download.name).toBe(`explore-${kept.length}-records.tfrecord`);
    expect(download.bytes.equals(concat(kept.map((id) => frames[id]!)))).toBe(true);
    expect(await payloadsOf(download.bytes)).toEqual(kept.map((id) => file.payloads[id]));

    // A syntax error names its column, and the table keeps what it showed.
    await page.fill('#filter', 'label == ');
    expect(await apply('filter-form', 'error')).toBe(
      'expected a number, a string, true, false or null, got the end at column 9',
    );
    await page.fill('#filter', '');
    expect(await apply('filter-form')).toBe(`All ${RECORDS} records`);
  });

  it('exports from a gzip file and from a damaged one the same bytes as the source records', async () => {
    await pick('explore.tfrecord.gz', gzipped(file.bytes));
    await finished();
    await page.fill('#filter', 'id >= 90');
    await apply('filter-form');
    const gzip = await exported();
    expect(gzip.bytes.equals(concat(frames.slice(90)))).toBe(true);

    // Record 40's data damaged: it is left out, and the records on both sides of it are whole.
    const damaged = file.bytes.slice();
    damaged[file.offsets[40]! + 30]! ^= 0xff;
    await pick('damaged.tfrecord', damaged);
    expect(await finished()).toMatch(/ 1 problem/);
    await page.fill('#filter', 'id >= 38 and id <= 42');
    expect(await apply('filter-form')).toMatch(/^4 of 99 records/);
    const cut = await exported();
    expect(cut.bytes.equals(concat([38, 39, 41, 42].map((id) => frames[id]!)))).toBe(true);
    await page.click('#show-all');
    await page.waitForSelector('#selection-info:text("All 99 records")');
    expect((await exported()).bytes.equals(concat(frames.filter((_, id) => id !== 40)))).toBe(true);
  });

  it('shows a seeded random sample (the sample core’s sampleRows keeps) and every k-th record', async () => {
    await pick('explore.tfrecord', file.bytes);
    await finished();
    await page.fill('#sample-count', '12');
    await page.fill('#sample-seed', '7');
    expect(await apply('sample-form')).toBe(`12 of ${RECORDS} records in a random sample (seed 7)`);
    const expected: number[] = [];
    const reader = new ReadableStream<number>({
      start(controller) {
        for (let index = 0; index < RECORDS; index++) controller.enqueue(index);
        controller.close();
      },
    })
      .pipeThrough(sampleRows<number>({ count: 12, seed: 7 }))
      .getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) expected.push(read.value);
    await showsRecord(expected[0]!);
    expect(await tableIndexes()).toEqual(expected);
    await page.fill('#sample-seed', '8');
    await apply('sample-form');
    await page.waitForFunction(
      (first) => document.querySelector('.record-row[data-row="0"] .cell-0')?.textContent !== String(first),
      expected[0],
    );
    expect(await tableIndexes()).not.toEqual(expected);

    await page.fill('#every-step', '7');
    expect(await apply('every-form')).toBe(`15 of ${RECORDS} records every 7th`);
    await showsRecord(0);
    expect(await tableIndexes()).toEqual(Array.from({ length: 15 }, (_, index) => index * 7));
    await page.keyboard.press('End');
    await showsRecord(98);
  });

  it('draws a grid of the records’ images with their boxes, and opens a record from it', async () => {
    const image = await greyJpeg();
    const boxes = tfrecordFile(
      Array.from({ length: 60 }, (_, index) =>
        detectionRecord(image, [[0.25, 0.25, 0.75, 0.75]], [`c${index}`]),
      ),
    );
    await pick('boxes.tfrecord', boxes.bytes);
    await finished();
    await page.keyboard.press('2');
    await page.waitForSelector('.grid-cell:nth-child(48) canvas');
    expect(await page.locator('.grid-cell').count()).toBe(48);
    expect(await page.textContent('#grid-info')).toBe('Rows 1–48 of 60');
    // Box 0 of label 1 is drawn in #00e5ff: its left edge at x = 80 of the 320×240 image.
    const edge = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('.grid-cell:nth-child(5) canvas')!;
      return Array.from(canvas.getContext('2d')!.getImageData(80, 150, 1, 1).data);
    });
    expect(edge[0]).toBeLessThan(40);
    expect(edge[1]).toBeGreaterThan(200);
    await page.keyboard.press('t');
    await page.screenshot({ path: new URL('grid-dark.png', SCREENSHOTS).pathname });
    await page.click('#grid-next');
    await page.waitForSelector('#grid-info:text("Rows 49–60 of 60")');
    await page.click('.grid-cell:nth-child(3)');
    await showsRecord(50);
    expect(await page.isVisible('#records-view')).toBe(true);
  });

  it('opens a folder of shards with their .idx files checked and the manifest shown', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tfpipe-view-shards-'));
    try {
      await writeShards(directory, 50);
      await page.setInputFiles('#folder-input', directory);
      expect(await finished()).toMatch(/^25 records, every CRC verified/);
      expect(await page.locator('#file-list option').allTextContents()).toEqual([
        expect.stringMatching(/train-00000-of-00002\.tfrecord$/),
        expect.stringMatching(/train-00001-of-00002\.tfrecord$/),
      ]);
      await page.waitForSelector('.index-line[data-check="ok"]');
      expect(await page.textContent('.index-line')).toBe(
        'Index train-00000-of-00002.tfrecord.idx: 25 records listed, every offset and size matches the file',
      );
      expect(await page.textContent('.manifest summary')).toMatch(
        /train\.manifest\.json: 50 records \(Example, none\) in 2 shards, 1 feature/,
      );
      await page.click('.manifest summary');
      expect(await page.textContent('.open-shard')).toContain('matches the file');
      await page.screenshot({ path: new URL('shards-light.png', SCREENSHOTS).pathname });
      await page.selectOption('#file-list', '1');
      await page.waitForFunction(() => document.querySelector('.index-line')?.textContent?.includes('00001'));

      // An index whose third line is off by one byte, and a manifest that is not JSON.
      const indexPath = join(directory, 'train-00001-of-00002.tfrecord.idx');
      const lines = (await readFile(indexPath, 'utf8')).split('\n');
      const [offset, size] = lines[2]!.split(' ');
      lines[2] = `${Number(offset) + 1} ${size}`;
      await writeFile(indexPath, lines.join('\n'));
      await writeFile(join(directory, 'train.manifest.json'), '{"format": ');
      await page.reload();
      await page.setInputFiles('#folder-input', directory);
      await page.selectOption('#file-list', '1');
      await page.waitForSelector('.index-line[data-check="mismatch"]');
      expect(await page.textContent('.index-line summary')).toBe(
        'Index train-00001-of-00002.tfrecord.idx: 25 records listed, 1 line disagrees with the file',
      );
      expect(await page.textContent('.index-mismatches')).toBe(
        `line 3: says byte ${Number(offset) + 1}, ${size} bytes; record 2 is at byte ${offset}, ${size} bytes`,
      );
      expect(await page.textContent('#shard-info')).toMatch(/train\.manifest\.json: not JSON/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('opens a folder dropped on the page as the Folder… picker opens it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tfpipe-view-dropped-'));
    try {
      await writeShards(directory, 30);
      await writeFile(join(directory, '.DS_Store'), 'not a shard');
      const seen = async (): Promise<string[]> => {
        expect(await finished()).toMatch(/^15 records, every CRC verified/);
        await page.waitForSelector('.index-line[data-check="ok"]');
        await page.waitForSelector('.manifest summary');
        return [
          ...(await page.locator('#file-list option').allTextContents()),
          (await page.textContent('.index-line')) ?? '',
          (await page.textContent('.manifest summary')) ?? '',
        ];
      };
      await page.setInputFiles('#folder-input', directory);
      const picked = await seen();
      expect(picked.slice(0, 2)).toEqual([
        expect.stringMatching(/^tfpipe-view-dropped-\w+\/train-00000-of-00002\.tfrecord$/),
        expect.stringMatching(/^tfpipe-view-dropped-\w+\/train-00001-of-00002\.tfrecord$/),
      ]);

      // A real drag of the folder from the desktop, through Chromium's own drag and drop (DevTools
      // protocol): the page gets a directory entry, as it does from a file manager.
      await page.reload();
      const session = await page.context().newCDPSession(page);
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await session.send('Input.dispatchDragEvent', {
          type,
          x: 640,
          y: 400,
          data: { items: [], files: [directory], dragOperationsMask: 1 },
        });
      }
      expect(await seen()).toEqual(picked);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('filters (the f key), takes every k-th and exports while the file is still read, and says so', async () => {
    const table = tabularFile(100_000);
    // Only the first slice the reader asks for is answered until the test releases the rest.
    let release!: () => void;
    served = {
      name: 'slow.tfrecord',
      bytes: table.bytes,
      held: STREAM_CHUNK_BYTES,
      release: new Promise((resolve) => (release = resolve)),
    };
    try {
      expect(table.bytes.length).toBeGreaterThan(STREAM_CHUNK_BYTES);
      const ends = table.offsets.map((_, index) => table.offsets[index + 1] ?? table.bytes.length);
      const read = ends.filter((end) => end <= STREAM_CHUNK_BYTES).length;
      const n = (value: number): string => value.toLocaleString('en');
      await page.reload();
      await page.waitForFunction(
        (records) => document.querySelector('#status')?.textContent?.endsWith(` ${records} records`),
        n(read),
      );
      await page.keyboard.press('f');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter');
      await page.keyboard.type('id < 1000');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#selection-info[data-state="selected"]');
      const soFar = 'read so far (the file is still being read)';
      expect(await page.textContent('#selection-info')).toBe(
        `1,000 of ${n(read)} records ${soFar} match id < 1000`,
      );
      expect(await tableIndexes()).toEqual(expect.arrayContaining([0, 1, 2]));

      const download = await exported();
      expect(Buffer.compare(download.bytes, table.bytes.subarray(0, table.offsets[1000]))).toBe(0);
      expect(await page.textContent('#selection-info')).toContain(
        `; exported 1,000 records (those read so far) to slow-1000-records.tfrecord`,
      );
      await page.fill('#every-step', '7');
      expect(await apply('every-form')).toBe(
        `${n(Math.ceil(read / 7))} of ${n(read)} records ${soFar} every 7th`,
      );
      expect(await page.textContent('#status')).toMatch(/^Verifying/);

      release();
      expect(await finished()).toMatch(/^100,000 records, every CRC verified/);
      expect(await page.textContent('#selection-info')).toContain(
        'the file is now read: apply again for all 100,000',
      );
      expect(await apply('every-form')).toBe(`${n(Math.ceil(100_000 / 7))} of 100,000 records every 7th`);
    } finally {
      release();
      served = undefined;
    }
  });

  it('shows a decompression bomb as problems while the page stays usable', async () => {
    // 16 MiB of zeros after one good record: about 16 KB gzipped. The reader resynchronises through it
    // a slice at a time; the page answers while it does.
    const good = tabularFile(1).bytes;
    const bomb = gzipped(Buffer.concat([Buffer.from(good), Buffer.alloc(16 * 2 ** 20)]));
    await pick('bomb.tfrecord.gz', bomb);
    await showsRecord(0);
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    expect(await finished()).toMatch(/^1 record \(gzip\), [1-9]\d* problems? /);
    expect(await page.textContent('#problem-list')).toMatch(/lost bytes \d+–\d+/);
  });
});
