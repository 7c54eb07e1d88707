// One of `pnpm test`'s tasks: the package checks (check-packages.mjs: publint, attw) and the install test
// (pack-install-test.mjs) on one set of tarballs, packed once (TFPIPE_PACKED, see pack-packages.mjs).
// Both run even when the first fails; the exit code is non-zero if either failed. In `pnpm test`, turbo runs this
// script beside the tests, once `build:types` and the build of each package it packs are done: those builds are
// listed in turbo.json's `//#package-checks` task, which is checked here against the packages packed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { publishablePackages, repositoryRoot } from './pack-packages.mjs';

const turbo = JSON.parse(readFileSync(path.join(repositoryRoot, 'turbo.json'), 'utf8'));
const waitsFor = new Set(turbo.tasks['//#package-checks']?.dependsOn ?? []);
const unbuilt = publishablePackages()
  .map(({ name }) => `${name}#build`)
  .filter((task) => !waitsFor.has(task));
if (unbuilt.length > 0 || !waitsFor.has('//#build:types')) {
  console.error(
    `package-checks: turbo.json's //#package-checks must depend on //#build:types and on ${unbuilt.join(', ')}`,
  );
  process.exit(1);
}

const packed = mkdtempSync(path.join(tmpdir(), 'tfpipe-packed-'));
try {
  for (const script of ['check-packages.mjs', 'pack-install-test.mjs']) {
    const result = spawnSync(process.execPath, [path.join(repositoryRoot, 'scripts', script)], {
      stdio: 'inherit',
      env: { ...process.env, TFPIPE_PACKED: packed },
    });
    if (result.status !== 0) process.exitCode = 1;
  }
} finally {
  rmSync(packed, { recursive: true, force: true });
}
