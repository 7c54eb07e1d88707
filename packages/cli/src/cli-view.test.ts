// `tfpipe view`: the page and only the named files, on loopback, under the run's token; and the page
// it serves reading those files in a real Chromium (Debian's `chromium`, skipped without it).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { encodeExample, example, int64 } from '@tfpipe/core';
import { frameRecord } from '@tfpipe/sink-tfrecord/web';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../../../test-support/chromium.js';
import { BIN, tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
let child: ChildProcess;
let url: URL;
const plain = Buffer.concat(
  Array.from({ length: 30 }, (_, index) => frameRecord(encodeExample(example({ id: int64(index) })))),
);

/** A raw HTTP request (fetch cannot set `Host` or send `..` unnormalized). */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-view-'));
  await mkdir(join(directory, 'shards'));
  await writeFile(join(directory, 'plain.tfrecord'), plain);
  await writeFile(join(directory, 'secret.txt'), 'not to be served');
  await writeFile(join(directory, 'shards', 'train-00000-of-00001.tfrecord.gz'), gzipSync(plain));
  await writeFile(join(directory, 'shards', 'train-00000-of-00001.tfrecord.gz.idx'), '0 46\n');
  child = spawn(process.execPath, [BIN, 'view', 'plain.tfrecord', 'shards', '--no-open'], { cwd: directory });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`tfpipe view exited with ${code}`)));
  });
  expect(line).toMatch(
    /^tfpipe view: 2 files \(and 1 \.idx\/manifest\) at http:\/\/127\.0\.0\.1:\d+\/[\w-]{22}\/\n$/,
  );
  url = new URL(/http:\S+/.exec(line)![0]);
});
afterAll(async () => {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // Interrupted, it closes the server (and the page's open connections) and exits 0.
  expect(await exited).toBe(0);
  await rm(directory, { recursive: true, force: true });
});

describe('tfpipe view serves the page and only the named files on loopback', () => {
  it('serves the page with its Content-Security-Policy under the token', async () => {
    const page = await get(url.pathname);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<title>tfpipe view</title>');
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    // Only our own scripts run, and they may compile the WebAssembly CRC (no eval of strings).
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
  });

  it('lists the named file and the directory’s records with their .idx sidecar', async () => {
    const listing = JSON.parse((await get(`${url.pathname}files.json`)).body.toString());
    expect(listing).toEqual([
      { name: 'plain.tfrecord', url: 'files/0', size: plain.length },
      { name: join('shards', 'train-00000-of-00001.tfrecord.gz'), url: 'files/1', size: expect.any(Number) },
      { name: join('shards', 'train-00000-of-00001.tfrecord.gz.idx'), url: 'files/2', size: 5 },
    ]);
  });

  it('serves a named file whole and by byte range', async () => {
    const whole = await get(`${url.pathname}files/0`);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(plain)).toBe(true);
    const range = await get(`${url.pathname}files/0`, { range: 'bytes=12-27' });
    expect(range.status).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 12-27/${plain.length}`);
    expect(range.body.equals(plain.subarray(12, 28))).toBe(true);
  });

  it('answers 404 for every other path under the token and 403 without it', async () => {
    const token = url.pathname.split('/')[1]!;
    for (const path of ['files/3', 'secret.txt', '..%2fsecret.txt', 'shards/', 'assets/', 'files/0/x']) {
      expect([path, (await get(`/${token}/${path}`)).status]).toEqual([path, 404]);
    }
    // `..` is resolved before the token is checked: it climbs out of the token, hence 403.
    for (const path of [
      '/',
      '/index.html',
      `/${token}/../secret.txt`,
      '/files.json',
      '/files/0',
      `/${'A'.repeat(token.length)}/files/0`,
    ]) {
      expect([path, (await get(path)).status]).toEqual([path, 403]);
    }
  });

  it('refuses another Host (DNS rebinding) and methods other than GET and HEAD', async () => {
    expect((await get(`${url.pathname}files/0`, { host: `evil.example:${url.port}` })).status).toBe(403);
    expect((await get(`${url.pathname}files/0`, {}, 'POST')).status).toBe(405);
  });

  it('refuses to listen anywhere but loopback, naming --host', async () => {
    const result = await tfpipe([
      'view',
      join(directory, 'plain.tfrecord'),
      '--no-open',
      '--host',
      '0.0.0.0',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--host: tfpipe view serves on loopback only');
  });

  it('names a missing file', async () => {
    const result = await tfpipe(['view', join(directory, 'missing.tfrecord'), '--no-open']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('missing.tfrecord');
  });
});

const executablePath = chromiumPath();

describe.skipIf(executablePath === undefined)('tfpipe view in Chromium', () => {
  it('opens the served files in the page and verifies them', async () => {
    const browser = await chromium.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url.href);
      await page.waitForSelector('#status[data-done="true"]');
      expect(await page.textContent('#status')).toMatch(/^30 records, every CRC verified/);
      await page.selectOption('#file-list', '1');
      await page.waitForFunction(() =>
        document.querySelector('#status')?.textContent?.startsWith('30 records (gzip)'),
      );
      // The shard's .idx, served beside it, is checked against the records read: its one line is
      // not record 0's frame (31 bytes), and it leaves out the other 29 records.
      await page.waitForSelector('.index-line[data-check="mismatch"]');
      expect(await page.locator('.index-mismatches li').allTextContents()).toEqual([
        'line 1: says byte 0, 46 bytes; record 0 is at byte 0, 31 bytes',
        '29 records of the file are missing from the index',
      ]);
      await page.keyboard.press('End');
      await page.waitForFunction(() =>
        document.querySelector('#record-view h2')?.textContent?.startsWith('Record 29'),
      );
    } finally {
      await browser.close();
    }
  });
});
