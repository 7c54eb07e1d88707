// Serves the built page from dist/ on 127.0.0.1 for the browser tests, as any static server would
// (the page opened on its own: no files.json, so it waits for a file to be picked or dropped).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const VIEWER_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Starts the server; resolves to the page's URL and the server (close it after the tests).
 * @param dist - the built page's folder, ending in `/`. @default the viewer's `dist/`
 */
export async function serveBundle(dist = VIEWER_DIST): Promise<{ url: string; server: Server }> {
  if (!existsSync(path.join(dist, 'index.html')))
    throw new Error(`no built page in ${dist}: run pnpm build first`);
  const server = createServer((request, response) => {
    const name =
      decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname).slice(1) || 'index.html';
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
