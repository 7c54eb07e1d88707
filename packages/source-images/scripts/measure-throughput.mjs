/* global process, Buffer, performance, console */
// Measures (does not assert) the image source against sharp alone and against a raw file read.
// Run after `pnpm --filter @tfpipe/source-images build`: node scripts/measure-throughput.mjs [images] [concurrency]
// Environment: ROUNDS (keep-mode rounds, default 5), MODE=keep (only the keep-mode comparison).
import { readFile as readFileWithCallback } from 'node:fs';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { imageSource } from '../dist/index.js';

const readFileCallback = promisify(readFileWithCallback);
const count = Number(process.argv[2] ?? 300);
const concurrency = Number(process.argv[3] ?? availableParallelism());
const root = await mkdtemp(path.join(tmpdir(), 'tfpipe-measure-'));
try {
  const pixels = Buffer.alloc(640 * 480 * 3);
  for (let index = 0; index < count; index++) {
    for (let offset = 0; offset < pixels.length; offset++)
      pixels[offset] = (offset * 7 + index * 13 + ((offset * 2654435761) >>> 24)) & 0xff;
    const jpeg = await sharp(pixels, { raw: { width: 640, height: 480, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const folder = path.join(root, `class${index % 3}`);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `${String(index).padStart(4, '0')}.jpg`), jpeg);
  }
  const files = [];
  for (const folder of (await readdir(root)).sort())
    for (const name of (await readdir(path.join(root, folder))).sort())
      files.push(path.join(root, folder, name));

  const time = async (label, run) => {
    await run(); // warm-up
    const start = performance.now();
    await run();
    const seconds = (performance.now() - start) / 1000;
    console.log(`${label.padEnd(48)} ${(count / seconds).toFixed(0).padStart(6)} images/s`);
    return count / seconds;
  };
  const drain = async (stream) => {
    const reader = stream.getReader();
    while (!(await reader.read()).done);
  };
  const pool = async (work) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < files.length) await work(files[next++]);
      }),
    );
  };

  console.log(`${count} images 640x480 JPEG, concurrency ${concurrency}, ${availableParallelism()} cores`);
  // MODE=keep skips the resize measurements.
  const resizing = process.env.MODE !== 'keep';
  const sharpAlone = !resizing
    ? 0
    : await time('sharp alone: read + resize 224x224 + JPEG q90', () =>
        pool(async (file) =>
          sharp(await readFile(file))
            .autoOrient()
            .resize({ width: 224, height: 224, fit: 'cover' })
            .jpeg({ quality: 90 })
            .toBuffer(),
        ),
      );
  const resized = (inFlight) =>
    drain(
      imageSource({
        folder: root,
        concurrency: inFlight,
        resize: { width: 224, height: 224 },
        format: 'jpeg',
        quality: 90,
      }),
    );
  const ours = !resizing
    ? 0
    : await time('imageSource: resize 224x224 + JPEG q90', () => resized(concurrency));
  const ones = !resizing ? 0 : await time('imageSource, concurrency 1', () => resized(1));
  // Keep mode against a raw read: interleaved rounds (the machine is shared), medians reported,
  // with the process CPU time (main thread plus thread pool) per image.
  const rounds = Number(process.env.ROUNDS ?? 5);
  const modes = {
    'raw read (fs/promises readFile)': () => pool((file) => readFile(file)),
    'raw read (callback fs.readFile)': () => pool((file) => readFileCallback(file)),
    'imageSource: keep original bytes': () => drain(imageSource({ folder: root, concurrency })),
    'imageSource: keep, no sha256': () =>
      drain(imageSource({ folder: root, concurrency, keys: { sha256: false } })),
  };
  const samples = Object.fromEntries(Object.keys(modes).map((label) => [label, { rates: [], cpu: [] }]));
  for (const run of Object.values(modes)) await run(); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [label, run] of Object.entries(modes)) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await run();
      const seconds = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu);
      samples[label].rates.push(count / seconds);
      samples[label].cpu.push((used.user + used.system) / count);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  for (const [label, { rates, cpu }] of Object.entries(samples)) {
    console.log(
      `${label.padEnd(48)} ${median(rates).toFixed(0).padStart(6)} images/s (median of ${rounds}; ` +
        `${rates.map((rate) => rate.toFixed(0)).join(' ')}), CPU ${median(cpu).toFixed(0)} µs/image`,
    );
  }
  const rawRead = median(samples['raw read (fs/promises readFile)'].rates);
  const rawCallback = median(samples['raw read (callback fs.readFile)'].rates);
  const keep = median(samples['imageSource: keep original bytes'].rates);
  console.log(
    'mean file bytes',
    (await Promise.all(files.map((file) => readFile(file).then((data) => data.length)))).reduce(
      (a, b) => a + b,
      0,
    ) / files.length,
  );
  if (resizing)
    console.log(
      `ratio resize vs sharp alone: ${(ours / sharpAlone).toFixed(2)}x (issue asks >= 0.9x); concurrency 1: ${ones.toFixed(0)} images/s`,
    );
  console.log(
    `ratio keep-original vs raw read: ${(keep / rawRead).toFixed(2)}x (issue asks >= 0.5x); ` +
      `vs the callback read: ${(keep / rawCallback).toFixed(2)}x; per-round ratios: ` +
      samples['imageSource: keep original bytes'].rates
        .map((rate, index) => (rate / samples['raw read (fs/promises readFile)'].rates[index]).toFixed(2))
        .join(' '),
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
