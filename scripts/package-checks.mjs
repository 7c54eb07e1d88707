// `pnpm test`'s last step: the package checks (check-packages.mjs: publint, attw) and the install test
// (pack-install-test.mjs) on one set of tarballs, packed once (TFPIPE_PACKED, see pack-packages.mjs).
// Both run even when the first fails; the exit code is non-zero if either failed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { repositoryRoot } from './pack-packages.mjs';

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
