/* global URL, console */
// After tsup: copies the built tfpipe view page (apps/viewer, a devDependency built before this
// package) into dist/viewer, so that the published @tfpipe/cli carries it and `tfpipe view` serves it.
import { cpSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../node_modules/@tfpipe/viewer/dist/', import.meta.url));
const target = fileURLToPath(new URL('../dist/viewer/', import.meta.url));
if (!existsSync(`${source}index.html`)) {
  throw new Error(
    `copy-viewer: ${source} has no index.html; build @tfpipe/viewer first (pnpm turbo run build)`,
  );
}
cpSync(source, target, { recursive: true });
console.log(`copy-viewer: the viewer page copied to ${target}`);
