import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { SECURITY_HEADERS, TYPES, bundleFiles, send, sendFile } from './send-file.js';
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
