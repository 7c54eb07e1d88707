// The install test: what a stranger gets from npm. Packs every publishable package, installs the
// tarballs with npm into a fresh project outside the workspace (third-party dependencies come from
// the registry, ours only from the tarballs), loads every entry point, runs a CSV → TFRecord
// pipeline and `npx tfpipe inspect` / `verify` on its output, and serves it with `tfpipe view`.
// Exits non-zero on any failure.
// KEEP_INSTALL_TEST=1 keeps the temporary project for a look.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packPackages, repositoryRoot } from './pack-packages.mjs';

const started = Date.now();
const root = mkdtempSync(path.join(tmpdir(), 'tfpipe-install-test-'));
if (root.startsWith(`${repositoryRoot}${path.sep}`))
  throw new Error('the test project must be outside the workspace');
const project = path.join(root, 'project');
const step = (text) =>
  console.log(`[pack-install] ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    cwd: project,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

function check(condition, message) {
  if (!condition) throw new Error(`pack-install test: ${message}`);
}

try {
  mkdirSync(path.join(root, 'tarballs'));
  const packed = packPackages(path.join(root, 'tarballs'));
  step(`packed ${packed.map((pkg) => path.basename(pkg.tarball)).join(', ')}`);
  for (const { name, tarball } of packed) {
    const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: root }));
    const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
    const left = Object.entries(ranges).filter(([, range]) => String(range).startsWith('workspace:'));
    check(left.length === 0, `${name} still has workspace ranges: ${JSON.stringify(left)}`);
  }

  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'tfpipe-install-test', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  // One npm install with every tarball, so that dependencies between our packages resolve to them.
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packed.map((pkg) => pkg.tarball)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  step('npm install of the tarballs done');

  const lock = JSON.parse(readFileSync(path.join(project, 'package-lock.json'), 'utf8'));
  const ours = Object.entries(lock.packages).filter(([key]) => key.includes('node_modules/@tfpipe/'));
  check(
    ours.length === packed.length,
    `expected ${packed.length} @tfpipe packages installed, found ${ours.length}`,
  );
  for (const [key, entry] of ours) {
    check(
      key.split('node_modules/').length === 2,
      `${key} is nested: a dependency did not resolve to the tarball`,
    );
    check(
      String(entry.resolved).startsWith('file:'),
      `${key} came from ${entry.resolved}, not a packed tarball`,
    );
  }

  // Every entry point of every package loads in plain Node (ESM) from the installed copy.
  const entries = packed.flatMap(({ name, directory }) => {
    const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
    return Object.keys(manifest.exports)
      .filter((key) => !key.endsWith('.json') && key !== './testing')
      .map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`));
  });
  writeFileSync(
    path.join(project, 'load-all.mjs'),
    `${entries.map((entry, index) => `import * as entry${index} from '${entry}';`).join('\n')}\n` +
      `for (const entry of [${entries.map((_, index) => `entry${index}`).join(', ')}]) if (Object.keys(entry).length === 0) throw new Error('empty entry');\n` +
      `console.log('loaded ${entries.length} entry points');\n`,
  );
  step(run('node', ['load-all.mjs']).trim());

  writeFileSync(
    path.join(project, 'flowers.csv'),
    `id,petal_length,species\n${Array.from({ length: 100 }, (_, id) => `${id},${(1 + id / 10).toFixed(1)},${['setosa', 'virginica'][id % 2]}`).join('\n')}\n`,
  );
  writeFileSync(
    path.join(project, 'pipeline.mjs'),
    `import { run } from '@tfpipe/core';
import { csvToExamples } from '@tfpipe/source-csv';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';

const summary = await run(
  csvToExamples({ path: 'flowers.csv', label: 'species' }),
  tfrecordSink({ path: 'out/flowers.tfrecord' }),
);
console.log(JSON.stringify({ written: summary.recordsWritten, skipped: summary.skipped }));
`,
  );
  const summary = JSON.parse(run('node', ['pipeline.mjs']).trim());
  check(summary.written === 100 && summary.skipped === 0, `pipeline wrote ${JSON.stringify(summary)}`);
  step('CSV → TFRecord pipeline wrote 100 records');

  const inspect = run('npx', ['--no-install', 'tfpipe', 'inspect', 'out/flowers.tfrecord', '--limit', '2']);
  for (const feature of ['id', 'petal_length', 'species']) {
    check(inspect.includes(feature), `tfpipe inspect does not show ${feature}:\n${inspect}`);
  }
  const json = run('npx', [
    '--no-install',
    'tfpipe',
    'inspect',
    'out/flowers.tfrecord',
    '--json',
    '--limit',
    '1',
  ]);
  const first = JSON.parse(json.trim().split('\n')[0]);
  check(
    JSON.stringify(first.features.feature.species) === JSON.stringify({ int64List: { value: ['0'] } }),
    `first record's species is ${JSON.stringify(first.features.feature.species)}`,
  );
  run('npx', ['--no-install', 'tfpipe', 'verify', 'out/flowers.tfrecord']);
  step('npx tfpipe inspect and verify read it back');
  await checkView();
  step('tfpipe view serves the page it ships and the named file');
  console.log(inspect.trim().replace(/^/gm, '  '));
} catch (error) {
  const output = [error.stdout, error.stderr].filter(Boolean).join('\n');
  console.error(`[pack-install] FAILED: ${error.message}${output ? `\n${output}` : ''}`);
  process.exitCode = 1;
} finally {
  if (process.env.KEEP_INSTALL_TEST) console.log(`[pack-install] kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}

/** `tfpipe view` from the installed package: its page (dist/viewer) and the named file are served. */
async function checkView() {
  const bin = path.join(project, 'node_modules', '@tfpipe', 'cli', 'dist', 'bin.js');
  const child = spawn(process.execPath, [bin, 'view', 'out/flowers.tfrecord', '--no-open'], { cwd: project });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(out);
      });
      child.once('exit', (code) => reject(new Error(`tfpipe view exited with ${code}`)));
    });
    const url = /http:\S+/.exec(line)?.[0];
    check(url !== undefined, `tfpipe view printed no URL: ${line}`);
    const page = await fetch(url);
    check(page.ok && (await page.text()).includes('<title>tfpipe view</title>'), `the page: ${page.status}`);
    const files = await (await fetch(`${url}files.json`)).json();
    check(
      files.length === 1 && files[0].name === 'out/flowers.tfrecord',
      `files.json: ${JSON.stringify(files)}`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}
