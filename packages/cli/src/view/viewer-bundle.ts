import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TfpipeError } from '@tfpipe/core';

/**
 * The built page: `dist/viewer/`, copied there from `apps/viewer` when the CLI is built (so the
 * published package carries it), or the workspace's `apps/viewer/dist/` when run from source.
 * @throws TfpipeError `IO` when neither exists (the CLI was built without the page)
 */
export function viewerBundle(): string {
  const candidates = [
    new URL('./viewer/', import.meta.url),
    new URL('../../../../apps/viewer/dist/', import.meta.url),
  ];
  const found = candidates
    .map((url) => fileURLToPath(url))
    .find((directory) => existsSync(`${directory}index.html`));
  if (found === undefined) {
    throw new TfpipeError('IO', 'the viewer page is missing from this install of @tfpipe/cli (dist/viewer)', {
      stage: 'view',
      fatal: true,
    });
  }
  return found;
}
