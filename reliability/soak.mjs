#!/usr/bin/env node
// Soak: converts growing inputs with the built CLI and prints peak RSS per size, to show memory stays
// flat. `node reliability/soak.mjs` runs the full sizes (5M CSV rows, 5M Parquet rows, 3000 images);
// SOAK_SIZES=200000,1000000 SOAK_KINDS=csv,parquet,images SOAK_IMAGES=200,1000 pick others.
// Build first: pnpm --filter @tfpipe/cli... build
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const bin = join(root, 'packages/cli/dist/bin.js');
const probe = join(here, 'rss-probe.mjs');
const sizes = (process.env.SOAK_SIZES ?? '500000,5000000').split(',').map(Number);
const imageCounts = (process.env.SOAK_IMAGES ?? '300,3000').split(',').map(Number);
const kinds = (process.env.SOAK_KINDS ?? 'csv,parquet,images').split(',');

/** Runs `tfpipe convert input out` under the RSS probe; returns peak RSS in bytes and seconds taken. */
export function convertPeak(input, out, extra = []) {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    ['--import', probe, bin, 'convert', input, out, '--quiet', '--overwrite', ...extra],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  const match = /tfpipe-rss-peak (\d+)/.exec(result.stderr);
  if (result.status !== 0 || match === null) throw new Error(`convert failed: ${result.stderr}`);
  return { peak: Number(match[1]), seconds: (Date.now() - started) / 1000 };
}

async function writeCsv(path, rows) {
  const stream = createWriteStream(path);
  stream.write('id,label,score,text\n');
  for (let row = 0; row < rows;) {
    let block = '';
    for (let end = Math.min(rows, row + 10_000); row < end; row++)
      block += `${row},${row % 10},${(row % 997) / 997},word${row} text\n`;
    if (!stream.write(block)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  await new Promise((resolve) => stream.end(resolve));
}

async function writeParquet(path, rows) {
  const require = createRequire(join(root, 'packages/source-parquet/package.json'));
  const { parquetWriteFile } = await import(require.resolve('hyparquet-writer'));
  const id = new BigInt64Array(rows);
  const score = new Float64Array(rows);
  const text = new Array(rows);
  for (let row = 0; row < rows; row++) {
    id[row] = BigInt(row);
    score[row] = (row % 997) / 997;
    text[row] = `word${row}`;
  }
  parquetWriteFile({
    filename: path,
    columnData: [
      { name: 'id', data: id, type: 'INT64' },
      { name: 'score', data: score, type: 'DOUBLE' },
      { name: 'text', data: text, type: 'STRING' },
    ],
    rowGroupSize: 100_000,
  });
}

async function writeImages(folder, count) {
  const require = createRequire(join(root, 'packages/source-images/package.json'));
  const sharp = require('sharp');
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 10, b: 90 } },
  })
    .png()
    .toBuffer();
  const { writeFile } = await import('node:fs/promises');
  for (const label of ['cat', 'dog']) await mkdir(join(folder, label), { recursive: true });
  for (let index = 0; index < count; index++)
    await writeFile(join(folder, index % 2 === 0 ? 'cat' : 'dog', `${index}.png`), png);
}

export async function soak({ kind, size, directory }) {
  const out = join(directory, `out-${kind}-${size}`);
  let input;
  if (kind === 'csv') await writeCsv((input = join(directory, `rows-${size}.csv`)), size);
  else if (kind === 'parquet') await writeParquet((input = join(directory, `rows-${size}.parquet`)), size);
  else await writeImages((input = join(directory, `images-${size}`)), size);
  const measured = convertPeak(input, out, ['--shards', '4']);
  await rm(input, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  return measured;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const directory = await mkdtemp(join(tmpdir(), 'tfpipe-soak-'));
  try {
    for (const kind of kinds) {
      for (const size of kind === 'images' ? imageCounts : sizes) {
        const { peak, seconds } = await soak({ kind, size, directory });
        console.log(`${kind}\t${size}\tpeak RSS ${(peak / 2 ** 20).toFixed(0)} MiB\t${seconds.toFixed(1)} s`);
      }
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
