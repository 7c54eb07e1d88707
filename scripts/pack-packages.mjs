// Packs every publishable package under packages/ with `pnpm pack`, which rewrites `workspace:^`
// ranges to real versions: the tarballs are exactly what `changeset publish` would upload.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The publishable packages: `{ name, directory }` for each non-private packages/* entry. */
export function publishablePackages() {
  const packagesDirectory = path.join(repositoryRoot, 'packages');
  return readdirSync(packagesDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(packagesDirectory, entry.name))
    .map((directory) => ({
      directory,
      manifest: JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ directory, manifest }) => ({ name: manifest.name, directory }));
}

/**
 * Packs them all into `destination`; returns `{ name, directory, tarball }` per package. When
 * TFPIPE_PACKED names a folder (scripts/package-checks.mjs sets it), they are packed into it once and
 * later calls in the same run reuse those tarballs (the sources do not change between the checks).
 */
export function packPackages(destination) {
  const shared = process.env.TFPIPE_PACKED;
  if (shared === undefined || shared === '') return packInto(destination);
  const list = path.join(shared, 'packed.json');
  if (existsSync(list)) return JSON.parse(readFileSync(list, 'utf8'));
  const packed = packInto(shared);
  writeFileSync(list, JSON.stringify(packed));
  return packed;
}

function packInto(destination) {
  return publishablePackages().map((pkg) => {
    const output = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: pkg.directory,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = output
      .trim()
      .split('\n')
      .map((line) => line.trim())
      .findLast((line) => line.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`pnpm pack printed no tarball for ${pkg.name}:\n${output}`);
    return { ...pkg, tarball: path.resolve(destination, tarball) };
  });
}
