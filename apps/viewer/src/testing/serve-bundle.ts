// Serves the built page from dist/ on 127.0.0.1 for the browser tests, as any static server would
// (the page opened on its own: no files.json, so it waits for a file to be picked or dropped).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const VIEWER_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Answers a request before the page's files are looked at; `false`: not this route's. */
export type Route = (path: string, request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Starts the server; resolves to the page's URL and the server (close it after the tests).
 * @param dist - the built page's folder, ending in `/`. @default the viewer's `dist/`
 * @param route - answers what a test serves beside the page (a `files.json`, files). @default none
 */
export async function serveBundle(
  dist = VIEWER_DIST,
  route: Route = () => false,
): Promise<{ url: string; server: Server }> {
  if (!existsSync(path.join(dist, 'index.html')))
    throw new Error(`no built page in ${dist}: run pnpm build first`);
  const server = createServer((request, response) => {
    const name =
      decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname).slice(1) || 'index.html';
    if (route(name, request, response)) return;
    const file = path.join(dist, name);
    if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no port');
  return { url: `http://127.0.0.1:${address.port}/`, server };
}
