import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';

/** What the page may do, sent on every answer (the page's own meta tag says the same). */
export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Content types of the page's files and of the file list. */
export const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Sends a small text body. */
export function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type }).end(body);
}

/** Streams a file, or the byte range a `Range: bytes=a-b` header asks for (the worker's slices). */
export function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  size: number,
  type: string,
): void {
  const headers = { ...SECURITY_HEADERS, 'content-type': type, 'accept-ranges': 'bytes' };
  const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
  let start = 0;
  let end = size - 1;
  if (range !== null) {
    start = Number(range[1]);
    end = range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
    if (start > end || start >= size) {
      return void response.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
    }
  }
  const length = Math.max(0, end - start + 1);
  response.writeHead(range === null ? 200 : 206, {
    ...headers,
    'content-length': String(length),
    ...(range === null ? {} : { 'content-range': `bytes ${start}-${end}/${size}` }),
  });
  if (request.method === 'HEAD' || length === 0) return void response.end();
  createReadStream(file, { start, end })
    .on('error', () => response.destroy())
    .pipe(response);
}

/** Every file of the built page by its path under the bundle (`index.html`, `assets/…`), listed once. */
export async function bundleFiles(
  directory: string,
): Promise<Map<string, { path: string; size: number; type: string }>> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = new Map<string, { path: string; size: number; type: string }>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const route = path.relative(directory, full).split(path.sep).join('/');
    files.set(route, {
      path: full,
      size: (await stat(full)).size,
      type: TYPES[path.extname(full)] ?? 'application/octet-stream',
    });
  }
  return files;
}
