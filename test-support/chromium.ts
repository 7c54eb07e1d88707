// Where the browser tests find Chromium: Debian's `chromium` package (Playwright's own browser download
// is not reachable from this project's machines). Without it the tests skip, except in CI, where
// .ci/run installs it and a missing browser must fail the run rather than pass it silently.
import { existsSync } from 'node:fs';

/** The places Debian's `chromium` package installs its binary, after `TFPIPE_CHROMIUM`. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'];

/** The skip message: which package to install. */
export const CHROMIUM_MISSING =
  'Chromium not found: install the Debian package `chromium` (apt-get install chromium) or set TFPIPE_CHROMIUM';

/**
 * The Chromium executable for playwright-core's `executablePath`: `TFPIPE_CHROMIUM`, else Debian's.
 * @returns the path, or `undefined` when there is none (tests then skip with {@link CHROMIUM_MISSING}).
 * @throws when `CI=true` and there is none: CI must run the browser tests.
 */
export function chromiumPath(): string | undefined {
  const given = process.env.TFPIPE_CHROMIUM;
  const found = given !== undefined && given !== '' ? given : CANDIDATES.find((path) => existsSync(path));
  if (found === undefined || !existsSync(found)) {
    if (process.env.CI === 'true')
      throw new Error(`${CHROMIUM_MISSING} (CI=true: the browser tests must run)`);
    console.warn(`skipping the browser tests: ${CHROMIUM_MISSING}`);
    return undefined;
  }
  return found;
}

/** Chromium flags for a container: no sandbox when root (CI runs as root), no GPU. */
export const CHROMIUM_ARGS = [
  ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  '--disable-gpu',
  '--disable-dev-shm-usage',
];
