import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bytes, encodeExample, example, float, int64 } from '@tfpipe/core';
import { countRecords } from '@tfpipe/sink-tfrecord';
import { frameRecord } from '@tfpipe/sink-tfrecord/internal';
import { chromium } from 'playwright-core';
import { serveBundle } from '../../../apps/viewer/src/testing/serve-bundle.js';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, chromiumPath } from '../../../test-support/chromium.js';
import { processTreeCpuSeconds, watchPeakRss } from '../../../test-support/process-tree.js';
import { median, scaled, timeRuns, type BenchCase, type SideContext, type SideResult } from '../harness.js';

/** Each file's size at scale 1, in bytes. */
const FILE_BYTES = 256 * 1024 * 1024;
/** The target for the in-page verify, in MB/s. */
const TARGET_MB_PER_SECOND = 150;

/** The two files: small tabular records (a per-record cost shows) and 50 KB image-sized ones. */
const FILES = {
  small: {
    name: 'small.tfrecord',
    payload: (index: number): Uint8Array =>
      encodeExample(
        example({
          id: int64(BigInt(index)),
          score: float(0.1, index + 0.5),
          name: bytes(`row ${index}`),
          many: int64(...Array.from({ length: 20 }, (_, value) => value)),
        }),
      ),
  },
  large: {
    name: 'large.tfrecord',
    payload: (index: number): Uint8Array =>
      encodeExample(
        example({ 'image/encoded': bytes(new Uint8Array(50_000).fill(index)), id: int64(index) }),
      ),
  },
} as const;
type FileKind = keyof typeof FILES;

/** Writes `bytes` of records: a block of 256 framed records repeated with large writes. */
async function writeFile(path: string, kind: FileKind, bytes: number): Promise<string> {
  const block = Buffer.concat(
    Array.from({ length: 256 }, (_, index) => frameRecord(FILES[kind].payload(index))),
  );
  const handle = await open(path, 'w');
  let written = 0;
  try {
    for (; written < bytes; written += block.length) await handle.write(block);
  } finally {
    await handle.close();
  }
  return `${FILES[kind].name}: ${(written / 1e6).toFixed(0)} MB, ${block.length / 256} bytes a record on average`;
}

async function fileMegabytes(path: string): Promise<number> {
  const handle = await open(path);
  try {
    return (await handle.stat()).size / 1e6;
  } finally {
    await handle.close();
  }
}

/**
 * The built viewer's `dist/` (the bench's build builds it first: @tfpipe/viewer is a dependency), or
 * `BENCH_VIEWER_DIST` (ending in `/`): another build of the page, to compare two versions.
 */
function viewerDist(): string {
  const given = process.env.BENCH_VIEWER_DIST;
  if (given !== undefined && given !== '') return given;
  return join(dirname(createRequire(import.meta.url).resolve('@tfpipe/viewer/package.json')), 'dist/');
}

/**
 * Opens the file in the built viewer in Chromium, through the file input, and times it until the
 * status line says the pass is done: a fresh page (and reader worker) per run, as a user opens a file.
 */
async function inPage(context: SideContext, kind: FileKind): Promise<SideResult> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error(CHROMIUM_MISSING);
  const path = join(context.dataDirectory, FILES[kind].name);
  const { url, server } = await serveBundle(viewerDist());
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const rss = watchPeakRss(process.pid);
  try {
    const page = await browser.newPage();
    const megabytes = await fileMegabytes(path);
    /** MB per CPU-second of Chromium's processes, per timed run: less sensitive to a loaded machine. */
    const perCpuSecond: number[] = [];
    const result = await timeRuns(
      context.repeats,
      megabytes,
      async (round) => {
        const cpuBefore = processTreeCpuSeconds(process.pid);
        await page.setInputFiles('#file-input', path);
        const status = page.locator('#status[data-done="true"]');
        await status.waitFor({ timeout: 0 });
        const cpuAfter = processTreeCpuSeconds(process.pid);
        if (round >= 0 && cpuBefore !== undefined && cpuAfter !== undefined && cpuAfter > cpuBefore)
          perCpuSecond.push(megabytes / (cpuAfter - cpuBefore));
        const text = (await status.textContent()) ?? '';
        if (!text.includes('every CRC verified')) throw new Error(`the page says: ${text}`);
      },
      undefined,
      () => page.goto(url),
    );
    const note = [
      "both CRCs of every record in the page's reader worker",
      `${median(perCpuSecond).toFixed(0)} MB per CPU-second of Chromium's processes`,
      `target ≥ ${TARGET_MB_PER_SECOND} MB/s`,
      "peak RSS: Chromium's processes",
      result.note,
    ].join('; ');
    const peakRssBytes = rss.stop();
    return peakRssBytes === undefined ? { ...result, note } : { ...result, note, peakRssBytes };
  } finally {
    rss.stop();
    await browser.close();
    server.close();
  }
}

/** The Node reader on the same file: `countRecords` (both CRCs, the native CRC-32C). */
async function inNode(context: SideContext, kind: FileKind): Promise<SideResult> {
  const path = join(context.dataDirectory, FILES[kind].name);
  return timeRuns(
    context.repeats,
    await fileMegabytes(path),
    async () => void (await countRecords(path)),
    'both CRCs of every record',
  );
}

/**
 * Case i: `tfpipe view`'s verifying pass in Chromium (Debian's `chromium`, through playwright-core)
 * against the Node reader on the same files, for small and for large records.
 */
export const viewerCase: BenchCase = {
  name: 'view',
  title: 'i. tfpipe view: verify a file in Chromium vs the Node reader',
  unit: 'MB/s',
  unavailable: () => (chromiumPath() === undefined ? CHROMIUM_MISSING : undefined),
  async prepare(dataDirectory, scale) {
    const bytes = scaled(FILE_BYTES, scale, 1024 * 1024);
    return [
      await writeFile(join(dataDirectory, FILES.small.name), 'small', bytes),
      await writeFile(join(dataDirectory, FILES.large.name), 'large', bytes),
    ];
  },
  sides: {
    pageSmall: {
      label: 'tfpipe view in Chromium, small records',
      run: (context) => inPage(context, 'small'),
    },
    nodeSmall: { label: 'countRecords in Node, small records', run: (context) => inNode(context, 'small') },
    pageLarge: {
      label: 'tfpipe view in Chromium, 50 KB records',
      run: (context) => inPage(context, 'large'),
    },
    nodeLarge: { label: 'countRecords in Node, 50 KB records', run: (context) => inNode(context, 'large') },
  },
  comparisons: [
    { ours: 'pageSmall', baseline: 'nodeSmall' },
    { ours: 'pageLarge', baseline: 'nodeLarge' },
  ],
};
