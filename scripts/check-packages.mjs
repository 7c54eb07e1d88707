// `pnpm check:packages`: every publishable package, packed as it would be published, passes publint
// (package.json and exports against the packed files) and @arethetypeswrong/cli (types resolve for
// ESM consumers; packages are ESM only, so CommonJS `require` is out of scope: --profile esm-only).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packPackages, repositoryRoot } from './pack-packages.mjs';

const bin = (name) => path.join(repositoryRoot, 'node_modules', '.bin', name);
const destination = mkdtempSync(path.join(tmpdir(), 'tfpipe-check-packages-'));
const failures = [];
try {
  for (const { name, tarball } of packPackages(destination)) {
    const checks = [
      ['publint', [bin('publint'), 'run', tarball, '--strict']],
      [
        'attw',
        [bin('attw'), tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'],
      ],
    ];
    for (const [tool, [command, ...args]] of checks) {
      const result = spawnSync(command, args, { encoding: 'utf8' });
      const ok = result.status === 0;
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${tool.padEnd(7)} ${name}`);
      if (!ok) {
        failures.push(`${tool} ${name}`);
        console.log(`${result.stdout}${result.stderr}`.trim().replace(/^/gm, '     '));
      }
    }
  }
} finally {
  rmSync(destination, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`check:packages failed: ${failures.join(', ')}`);
  process.exitCode = 1;
}
