// `pnpm check:packages`: every publishable package, packed as it would be published, passes publint
// (package.json and exports against the packed files, `--strict`) and @arethetypeswrong/cli (types resolve for
// ESM consumers; packages are ESM only, so CommonJS `require` is out of scope: its `esm-only` profile).
// Both run in this one process through the APIs their CLIs call (publint's `publint` and `formatMessage`,
// attw's core `checkPackage` and its CLI's `internal/render`), with the CLIs' options and pass/fail rules:
// TypeScript, which attw loads, is loaded once for all packages instead of once per package.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packPackages } from './pack-packages.mjs';

const require = createRequire(import.meta.url);
// publint exports no `./package.json`: its version from the manifest beside its `src`, as its CLI reads it.
const publintManifest = path.join(path.dirname(require.resolve('publint')), '..', 'package.json');
const publintVersion = JSON.parse(readFileSync(publintManifest, 'utf8')).version;

// attw's `--no-color`: its CLI sets FORCE_COLOR=0 before chalk is first used; chalk reads it on import, so
// attw's modules are imported after it is set (publint's colours are settled by then, as in its own process).
process.env.FORCE_COLOR = '0';
const attwCli = createRequire(require.resolve('@arethetypeswrong/cli/package.json'));
const attw = await import(pathToFileURL(attwCli.resolve('@arethetypeswrong/core')).href);
const render = await import('@arethetypeswrong/cli/internal/render');
const { getExitCode } = await import('@arethetypeswrong/cli/internal/getExitCode');
// `attw --profile esm-only --format ascii --no-color --no-emoji` (summary on, no rules ignored).
const attwOptions = {
  format: 'ascii',
  emoji: false,
  summary: true,
  ignoreRules: [],
  ignoreResolutions: ['node10', 'node16-cjs'],
};

/** publint --strict on a tarball: `{ ok, output }` as its CLI prints and exits (non-zero on an error). */
async function runPublint(tarball) {
  const data = readFileSync(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    strict: true,
    level: 'suggestion',
  });
  const lines = [`Running publint v${publintVersion} for ${tarball}...`];
  if (messages.length === 0) lines.push('All good!');
  for (const [type, title] of [
    ['error', 'Errors:'],
    ['warning', 'Warnings:'],
    ['suggestion', 'Suggestions:'],
  ]) {
    const ofType = messages.filter((message) => message.type === type);
    if (ofType.length > 0) lines.push(title);
    ofType.forEach((message, i) => lines.push(`${i + 1}. ${formatMessage(message, pkg)}`));
  }
  return { ok: !messages.some((message) => message.type === 'error'), output: lines.join('\n') };
}

/** attw on a tarball: `{ ok, output }` as its CLI prints and exits (non-zero on a problem not ignored). */
async function runAttw(tarball) {
  const analysis = await attw.checkPackage(
    attw.createPackageFromTarballData(new Uint8Array(readFileSync(tarball))),
  );
  if (!analysis.types) return { ok: true, output: render.untyped(analysis) };
  return { ok: getExitCode(analysis, attwOptions) === 0, output: await render.typed(analysis, attwOptions) };
}

const destination = mkdtempSync(path.join(tmpdir(), 'tfpipe-check-packages-'));
const failures = [];
try {
  for (const { name, tarball } of packPackages(destination)) {
    for (const [tool, check] of [
      ['publint', runPublint],
      ['attw', runAttw],
    ]) {
      let result;
      try {
        result = await check(tarball);
      } catch (error) {
        result = { ok: false, output: `error while checking ${tarball}:\n${error?.stack ?? error}` };
      }
      console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${tool.padEnd(7)} ${name}`);
      if (!result.ok) {
        failures.push(`${tool} ${name}`);
        console.log(result.output.trim().replace(/^/gm, '     '));
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
