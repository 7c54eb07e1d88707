// The web entry's parse(spec, { workers }) and decodeImages(feature, { workers }) on module Web
// Workers in a real Chromium (Debian's package through playwright-core): the entry and its worker
// modules bundled from the sources with esbuild and served over HTTP beside TFRecord files written by
// sink-tfrecord's writer. Each result is compared with the same work on the page's own thread and with
// what the files were written with (ids, PNG pixels).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bytes, example, float, int64 } from '@tfpipe/core';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../../../../test-support/chromium.js';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { noise, pngOf } from '../testing/png.js';
import { range, temporaryFolder, writeExamples } from '../testing/write-records.js';

const executablePath = chromiumPath();
const IMAGES = 50;
/** Image `id`'s size: 7 × 5, 9 × 4 or 3 × 8 pixels (width × height). */
const IMAGE_WIDTH = (id: number): number => [7, 9, 3][id % 3]!;
const IMAGE_HEIGHT = (id: number): number => [5, 4, 8][id % 3]!;

/** What the page reports of one pass of `decodeImages`: each batch's ids and images, then the error. */
interface DecodeResult {
  readonly batches: { ids: string[]; shape: number[]; data: number[] }[];
  readonly error?: PassResult['error'];
}

/** What the page reports of one pass: each batch as plain JSON (int64 as text), then the error if any. */
interface PassResult {
  readonly batches: Record<
    string,
    { dtype: string; shape: number[]; data: string[]; rowSplits?: number[][] }
  >[];
  readonly error?: {
    readonly code?: string;
    readonly message: string;
    readonly reason?: string;
    readonly position?: Record<string, unknown>;
  };
}

// Runs in the page: one pass of tfrecordDataset(url).parse(SPEC, options) through the module at
// `entry`, and a Worker that, when asked, terminates itself after its first reply (while it holds
// more batches, as an out-of-memory kill would end it).
const PAGE_SCRIPT = `
globalThis.workerLog = { started: 0, killed: 0, killAfterReply: false };
const BaseWorker = globalThis.Worker;
globalThis.Worker = class extends BaseWorker {
  constructor(url, options) {
    super(url, options);
    workerLog.started++;
    let locked = false;
    this.addEventListener('message', (event) => {
      const data = event.data;
      if (data !== null && typeof data.locked === 'string') locked = true;
      else if (data !== null && typeof data.id === 'number' && locked && workerLog.killAfterReply) {
        workerLog.killAfterReply = false;
        workerLog.killed++;
        this.terminate();
      }
    });
  }
};
const specs = new Map();
globalThis.parsePass = async (entry, url, options) => {
  const api = await import(entry);
  if (!specs.has(entry))
    specs.set(entry, {
      id: api.fixedLen([], 'int64'),
      blob: api.fixedLen([], 'string'),
      pair: api.fixedLen([2], 'float32'),
      scores: api.varLen('float32'),
      parts: api.ragged('int64'),
      blobList: api.ragged('string', { valueKey: 'blob' }),
      blobSparse: api.varLen('string'),
    });
  const plain = (tensor) => ({
    dtype: tensor.dtype,
    shape: [...tensor.shape],
    data: Array.from(tensor.data, (value) => (value instanceof Uint8Array ? new TextDecoder().decode(value) : String(value))),
    ...(tensor.rowSplits === undefined ? {} : { rowSplits: tensor.rowSplits.map((splits) => Array.from(splits)) }),
    ...(tensor.indices === undefined ? {} : { indices: Array.from(tensor.indices, String) }),
    ...(tensor.denseShape === undefined ? {} : { denseShape: [...tensor.denseShape].map(String) }),
  });
  const batches = [];
  try {
    for await (const batch of api.tfrecordDataset(new URL(url, location.href)).parse(specs.get(entry), options)) {
      const out = {};
      for (const name of Object.keys(batch)) out[name] = plain(batch[name]);
      batches.push(out);
    }
  } catch (error) {
    return { batches, error: { code: error.code, message: error.message, reason: error.reason, position: error.position && { ...error.position } } };
  }
  return { batches };
};
globalThis.decodePass = async (entry, url, options, batchSize = 16, take = Infinity) => {
  const api = await import(entry);
  const spec = { id: api.fixedLen([], 'int64'), 'image/encoded': api.fixedLen([], 'string') };
  const batches = [];
  try {
    const dataset = api
      .tfrecordDataset(new URL(url, location.href))
      .parse(spec, { batchSize })
      .take(take)
      .map(api.decodeImages('image/encoded', options));
    for await (const batch of dataset) {
      const images = batch['image/encoded'];
      batches.push({ ids: Array.from(batch.id.data, String), shape: [...images.shape], data: Array.from(images.data) });
    }
  } catch (error) {
    return { batches, error: { code: error.code, message: error.message, reason: error.reason, position: error.position && { ...error.position } } };
  }
  return { batches };
};
`;

function exampleOf(id: number, badId?: number) {
  return example({
    id: id === badId ? float(id) : int64(id),
    blob: bytes('y'.repeat(id % 2000)),
    pair: float(id, -id),
    scores: float(...range(0, id % 4)),
    parts: int64(...range(0, id % 3)),
    blobSparse: bytes(...range(0, id % 3).map((at) => `${id}-${at}`)),
  });
}

/** The `id` column of every batch, in order. */
function idsOf(result: PassResult): number[] {
  return result.batches.flatMap((batch) => batch.id!.data.map(Number));
}

describe.skipIf(executablePath === undefined)('parse with Web Workers in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let server: Server;
  let origin: string;
  const served = new Map<string, Uint8Array>();
  let crcOffset = 0;
  let imagePixels: Uint8Array[] = [];
  let brokenOffset = 0;

  beforeAll(async () => {
    const folder = await temporaryFolder();
    // The web entry and its worker module, side by side as in the package's dist; a second copy of the
    // entry without its worker (a bundle that left the worker file out).
    const bundle = await build({
      entryPoints: {
        index: fileURLToPath(new URL('../index.ts', import.meta.url)),
        'parse-worker-web': fileURLToPath(new URL('./parse-worker-web.ts', import.meta.url)),
        'image-worker-web': fileURLToPath(new URL('./image-worker-web.ts', import.meta.url)),
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outdir: '/out',
      logLevel: 'error',
      write: false,
    });
    for (const file of bundle.outputFiles) {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1);
      served.set(`/ok/${name}`, file.contents);
      if (name === 'index.js') {
        served.set('/broken/index.js', file.contents);
        served.set('/throwing/index.js', file.contents);
      }
    }
    const good = await writeExamples(folder, 'good.tfrecord', range(0, 3000), (id) => exampleOf(id));
    served.set('/data/good.tfrecord', await readFile(good));
    const bad = await writeExamples(folder, 'bad.tfrecord', range(0, 2000), (id) => exampleOf(id, 1234));
    served.set('/data/bad.tfrecord', await readFile(bad));
    const offsets: number[] = [];
    for await (const record of tfrecordDataset(good)) offsets.push(record.byteOffset);
    crcOffset = offsets[1234]!;
    const damaged = Uint8Array.from(await readFile(good));
    damaged[crcOffset + 12 + 3]! ^= 0x40; // a payload byte: the length CRC still holds
    served.set('/data/crc.tfrecord', damaged);
    // PNGs of three sizes (written byte by byte: their pixels are known), record 37 not an image.
    const pixelsOf = (id: number) => noise(IMAGE_HEIGHT(id) * IMAGE_WIDTH(id) * 3, id + 1);
    imagePixels = range(0, IMAGES).map(pixelsOf);
    const images = await writeExamples(folder, 'images.tfrecord', range(0, IMAGES), (id) =>
      example({
        id: int64(id),
        'image/encoded': bytes(pngOf(IMAGE_WIDTH(id), IMAGE_HEIGHT(id), 3, pixelsOf(id))),
      }),
    );
    served.set('/data/images.tfrecord', await readFile(images));
    const broken = await writeExamples(folder, 'broken-images.tfrecord', range(0, IMAGES), (id) =>
      example({
        id: int64(id),
        'image/encoded': bytes(
          id === 37 ? Uint8Array.of(1, 2, 3) : pngOf(IMAGE_WIDTH(id), IMAGE_HEIGHT(id), 3, pixelsOf(id)),
        ),
      }),
    );
    served.set('/data/broken-images.tfrecord', await readFile(broken));
    for await (const record of tfrecordDataset(broken))
      if (record.recordIndex === 37) brokenOffset = record.byteOffset;
    // A worker module that throws as it starts.
    served.set('/throwing/parse-worker-web.js', new TextEncoder().encode("throw new Error('boom');"));
    served.set('/page.html', new TextEncoder().encode('<!doctype html><title>tfpipe</title>'));
    server = createServer((request, response) => {
      const body = served.get(new URL(request.url ?? '/', 'http://x').pathname);
      if (body === undefined) {
        response.writeHead(404).end();
        return;
      }
      const type = request.url!.endsWith('.js')
        ? 'text/javascript'
        : request.url!.endsWith('.html')
          ? 'text/html'
          : 'application/octet-stream';
      response.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on('pageerror', (error) => console.warn('page error:', error.message));
    await page.goto(`${origin}/page.html`);
    await page.addScriptTag({ content: PAGE_SCRIPT });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const pass = (url: string, options: object, entry = '/ok/index.js'): Promise<PassResult> =>
    page.evaluate(
      ([entry, url, options]) =>
        (globalThis as unknown as { parsePass: (...args: unknown[]) => Promise<PassResult> }).parsePass(
          entry,
          url,
          options,
        ),
      [entry, url, options] as const,
    );
  const log = (): Promise<{ started: number; killed: number }> =>
    page.evaluate(() => ({
      ...(globalThis as unknown as { workerLog: { started: number; killed: number } }).workerLog,
    }));

  it('gives the batches of the parse on the page’s thread, in order, on Web Workers', async () => {
    const here = await pass('/data/good.tfrecord', { batchSize: 100 });
    expect(here.error).toBeUndefined();
    expect(idsOf(here)).toEqual(range(0, 3000));
    const before = (await log()).started;
    const there = await pass('/data/good.tfrecord', { batchSize: 100, workers: 2 });
    expect(there.error).toBeUndefined();
    expect(there.batches).toEqual(here.batches);
    // Two workers started; the same spec's next pass (batches of 7, a remainder) reuses them.
    expect((await log()).started - before).toBe(2);
    const odd = await pass('/data/good.tfrecord', { batchSize: 7, workers: 2 });
    expect(odd.batches).toEqual((await pass('/data/good.tfrecord', { batchSize: 7 })).batches);
    expect(odd.batches.at(-1)!.id!.shape).toEqual([3000 % 7]);
    expect((await log()).started - before).toBe(2);
    // deterministic: false: every batch exactly once, in any order.
    const unordered = await pass('/data/good.tfrecord', { batchSize: 100, workers: 3, deterministic: false });
    expect(unordered.error).toBeUndefined();
    const first = (batch: PassResult['batches'][number]) => Number(batch.id!.data[0]);
    expect([...unordered.batches].sort((a, b) => first(a) - first(b))).toEqual(here.batches);
  });

  it('fails at a bad feature and a damaged data CRC with the error and position of the one-thread parse', async () => {
    const file = `${origin}/data/bad.tfrecord`;
    const here = await pass('/data/bad.tfrecord', { batchSize: 100 });
    const there = await pass('/data/bad.tfrecord', { batchSize: 100, workers: 2 });
    expect(here.batches).toHaveLength(12);
    expect(there.batches).toEqual(here.batches);
    expect(there.error).toEqual(here.error);
    expect(there.error).toMatchObject({
      code: 'FEATURE_TYPE',
      position: { file, recordIndex: 1234, field: 'id' },
    });
    const crcHere = await pass('/data/crc.tfrecord', { batchSize: 100 });
    const crcThere = await pass('/data/crc.tfrecord', { batchSize: 100, workers: 2 });
    expect(crcThere.batches).toEqual(crcHere.batches);
    expect(crcThere.batches).toHaveLength(12);
    expect(crcThere.error).toEqual(crcHere.error);
    expect(crcThere.error).toMatchObject({
      code: 'RECORD_CRC',
      reason: 'data CRC mismatch',
      position: { file: `${origin}/data/crc.tfrecord`, recordIndex: 1234, byteOffset: crcOffset },
    });
  });

  it('a worker terminated while it holds batches fails the pass naming them; the next pass starts a new one', async () => {
    const here = await pass('/data/good.tfrecord', { batchSize: 100 });
    await page.evaluate(() => {
      (globalThis as unknown as { workerLog: { killAfterReply: boolean } }).workerLog.killAfterReply = true;
    });
    const killed = await pass('/data/good.tfrecord', { batchSize: 100, workers: 2 });
    expect((await log()).killed).toBe(1);
    expect(killed.error).toMatchObject({
      code: 'INTERNAL',
      message: expect.stringContaining('a parse worker failed'),
    });
    const held = /^records (\d+)–(\d+) of (.+) \(from byte \d+\): the parse worker stopped/.exec(
      killed.error!.reason ?? '',
    );
    expect(held, killed.error!.reason).not.toBeNull();
    expect(Number(held![2]) - Number(held![1])).toBe(99);
    expect(held![3]).toBe(`${origin}/data/good.tfrecord`);
    expect(killed.error!.position).toMatchObject({ recordIndex: Number(held![1]) });
    // The batches before the failed one came out, and they are right.
    expect(killed.batches).toEqual(here.batches.slice(0, killed.batches.length));
    expect(killed.batches.length).toBeLessThanOrEqual(Number(held![1]) / 100);
    const again = await pass('/data/good.tfrecord', { batchSize: 100, workers: 2 });
    expect(again.error).toBeUndefined();
    expect(again.batches).toEqual(here.batches);
  });

  it('a worker module that does not load is a TfpipeError, not a hang', async () => {
    const result = await pass('/data/good.tfrecord', { batchSize: 100, workers: 2 }, '/broken/index.js');
    expect(result.batches).toEqual([]);
    expect(result.error).toMatchObject({
      code: 'INTERNAL',
      position: { file: `${origin}/data/good.tfrecord`, recordIndex: 0, byteOffset: 0 },
    });
    expect(result.error!.reason).toMatch(/^records 0–99 of .+: the parse worker could not be loaded/);
    const throwing = await pass('/data/good.tfrecord', { batchSize: 100, workers: 2 }, '/throwing/index.js');
    expect(throwing.batches).toEqual([]);
    expect(throwing.error).toMatchObject({ code: 'INTERNAL', position: { recordIndex: 0, byteOffset: 0 } });
    expect(throwing.error!.reason).toMatch(/^records 0–99 of .+: the parse worker failed: .*boom/);
  });

  const decodePass = (url: string, options: object, batchSize = 16, take = 1e9): Promise<DecodeResult> =>
    page.evaluate(
      ([url, options, batchSize, take]) =>
        (globalThis as unknown as { decodePass: (...args: unknown[]) => Promise<DecodeResult> }).decodePass(
          '/ok/index.js',
          url,
          options,
          batchSize,
          take,
        ),
      [url, options, batchSize, take] as const,
    );

  it('decodes images on Web Workers: the pixels written, the same as on the page’s thread, in order', async () => {
    const before = (await log()).started;
    // Without a resize, the one size of images 0, 3, 6 … (a batch of one size each: every third record).
    const nearest = { resize: { height: 6, width: 6, kernel: 'nearest' } };
    const here = await decodePass('/data/images.tfrecord', nearest);
    const there = await decodePass('/data/images.tfrecord', { ...nearest, workers: 3 });
    expect(here.error).toBeUndefined();
    expect(there.error).toBeUndefined();
    expect(there.batches).toEqual(here.batches);
    expect(there.batches.flatMap((batch) => batch.ids)).toEqual(range(0, IMAGES).map(String));
    expect(there.batches[0]!.shape).toEqual([16, 6, 6, 3]);
    expect((await log()).started - before).toBe(3);
    // Lossless and not resized: exactly the pixels written (a batch of one image per pass, sizes differ).
    const one = await decodePass('/data/images.tfrecord', { workers: 2 }, 1, 3);
    expect(one.error).toBeUndefined();
    expect(one.batches.map((batch) => batch.shape)).toEqual(
      range(0, 3).map((id) => [1, IMAGE_HEIGHT(id), IMAGE_WIDTH(id), 3]),
    );
    expect(one.batches.map((batch) => batch.data)).toEqual(
      imagePixels.slice(0, 3).map((pixels) => Array.from(pixels)),
    );
  });

  it('an image that does not decode on a worker fails with the position of the one on the page', async () => {
    const options = { resize: { height: 4, width: 4 } };
    const here = await decodePass('/data/broken-images.tfrecord', options);
    const there = await decodePass('/data/broken-images.tfrecord', { ...options, workers: 2 });
    expect(there.batches).toEqual(here.batches);
    expect(there.error).toEqual(here.error);
    expect(there.error).toMatchObject({
      code: 'IMAGE_DECODE',
      position: {
        file: `${origin}/data/broken-images.tfrecord`,
        recordIndex: 37,
        byteOffset: brokenOffset,
        field: 'image/encoded',
      },
    });
  });

  it('an image worker terminated while it holds images fails the pass; the next pass decodes again', async () => {
    const options = { resize: { height: 8, width: 8 }, workers: 2 };
    const here = await decodePass('/data/images.tfrecord', { resize: options.resize });
    await page.evaluate(() => {
      (globalThis as unknown as { workerLog: { killAfterReply: boolean } }).workerLog.killAfterReply = true;
    });
    const killedBefore = (await log()).killed;
    const killed = await decodePass('/data/images.tfrecord', options);
    expect((await log()).killed).toBe(killedBefore + 1);
    expect(killed.error).toMatchObject({
      code: 'INTERNAL',
      message: expect.stringContaining('an image worker failed'),
      reason: 'the image worker stopped (terminated, closed or out of memory)',
      position: { file: `${origin}/data/images.tfrecord`, field: 'image/encoded' },
    });
    expect(killed.batches).toEqual(here.batches.slice(0, killed.batches.length));
    const again = await decodePass('/data/images.tfrecord', options);
    expect(again.batches).toEqual(here.batches);
  });
});
