// The browser tests' set-up: the built page served on 127.0.0.1, Debian's Chromium launched once per
// file, and a fresh 1280×800 page on it for each test.
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { CHROMIUM_ARGS } from '../../../../test-support/chromium.js';
import { serveBundle, type Route } from './serve-bundle.js';

/** Where the tests leave their screenshots (git-ignored; CI keeps it as an artifact). */
export const SCREENSHOTS = new URL('../../test-results/', import.meta.url);

/** What the hooks of {@link useViewerBrowser} set up, read once they have run. */
export interface ViewerBrowser {
  /** The page's URL on the test server. */
  readonly url: string;
}

/**
 * Registers the hooks of a browser test file (call it inside the `describe` that skips without
 * Chromium): serves the built page and launches Chromium before the tests, closes both after them,
 * and opens a fresh page for each test, hands it to `onPage` (to keep it and listen to it) and loads
 * the viewer in it. An error thrown in the page fails the test.
 * @param executablePath - the Chromium binary (`chromiumPath()` of test-support).
 * @param onPage - gets each test's page before the viewer loads in it.
 * @param route - answers what the tests serve beside the page. @default none
 */
export function useViewerBrowser(
  executablePath: string,
  onPage: (page: Page) => void,
  route?: Route,
): ViewerBrowser {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    ({ url, server } = await serveBundle(undefined, route));
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });
  beforeEach(async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => {
      throw error;
    });
    onPage(page);
    await page.goto(url!);
  });
  return {
    get url() {
      return url!;
    },
  };
}
