import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as path from 'node:path';
import type { ViewFile } from './view-files.js';

/** Options of {@link startViewServer}. */
export interface ViewServerOptions {
  /** The built page (`index.html` and `assets/`). */
  readonly bundleDirectory: string;
  /** The only files served besides the page. */
  readonly files: readonly ViewFile[];
  /** A loopback address to listen on; any other address is refused once bound. @default '127.0.0.1' */
  readonly host?: string;
  /** The port; 0 picks a free one. @default 0 */
  readonly port?: number;
}

/** A running server: the page's URL (with its token) and how to stop it. */
export interface ViewServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** What the page may do, sent on every answer (the page's own meta tag says the same). */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * Serves the page and the named files on a loopback address, under a random per-run token:
 * `/TOKEN/` the page, `/TOKEN/files.json` the list, `/TOKEN/files/N` file N (with HTTP ranges).
 * A request without the token is 403, any other path 404, a `Host` other than the loopback address
 * 403 (a DNS-rebinding page cannot read the files), a method other than GET/HEAD 405.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const token = randomBytes(16).toString('base64url');
  const bundle = await bundleFiles(options.bundleDirectory);
  const listing = JSON.stringify(
    options.files.map((file, index) => ({ name: file.name, url: `files/${index}`, size: file.size })),
  );
  let allowedHosts = new Set<string>();
  const server = createServer((request, response) => {
    const refusal = refuse(request, token, allowedHosts);
    if (refusal !== undefined) return void response.writeHead(refusal, SECURITY_HEADERS).end();
    const route = new URL(request.url ?? '/', 'http://localhost').pathname.slice(token.length + 2);
    if (route === 'files.json') return send(response, 200, TYPES['.json']!, listing);
    const fileMatch = /^files\/(\d+)$/.exec(route);
    const file = fileMatch === null ? undefined : options.files[Number(fileMatch[1])];
    if (file !== undefined)
      return sendFile(request, response, file.path, file.size, 'application/octet-stream');
    const asset = bundle.get(route === '' ? 'index.html' : route);
    if (asset !== undefined) return sendFile(request, response, asset.path, asset.size, asset.type);
    response.writeHead(404, SECURITY_HEADERS).end();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string' || !isLoopback(address.address)) {
    server.close();
    throw new Error(`tfpipe view: ${host} is not a loopback address`);
  }
  const port = address.port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${port}/${token}/`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The page's keep-alive connections would hold the server open.
        server.closeAllConnections();
      }),
  };
}

/** The status refusing `request`, or `undefined` when it may be answered. */
function refuse(
  request: IncomingMessage,
  token: string,
  allowedHosts: ReadonlySet<string>,
): number | undefined {
  if (!allowedHosts.has(request.headers.host ?? '')) return 403;
  if (request.method !== 'GET' && request.method !== 'HEAD') return 405;
  const [, first = ''] = new URL(request.url ?? '/', 'http://localhost').pathname.split('/');
  const given = Buffer.from(first);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 403;
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1';
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type }).end(body);
}

/** Streams a file, or the byte range a `Range: bytes=a-b` header asks for (the worker's slices). */
function sendFile(
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
async function bundleFiles(
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
