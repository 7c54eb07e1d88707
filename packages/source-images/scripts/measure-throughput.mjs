/* global process, Buffer, performance, console */
// Measures (does not assert) the image source against sharp alone and against a raw file read.
// Run after `pnpm --filter @tfpipe/source-images build`: node scripts/measure-throughput.mjs [images] [concurrency]
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { imageSource } from '../dist/index.js';

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
  const sharpAlone = await time('sharp alone: read + resize 224x224 + JPEG q90', () =>
    pool(async (file) =>
      sharp(await readFile(file))
        .autoOrient()
        .resize({ width: 224, height: 224, fit: 'cover' })
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
  const ours = await time('imageSource: resize 224x224 + JPEG q90', () =>
    drain(
      imageSource({
        folder: root,
        concurrency,
        resize: { width: 224, height: 224 },
        format: 'jpeg',
        quality: 90,
      }),
    ),
  );
  const ones = await time('imageSource, concurrency 1', () =>
    drain(
      imageSource({
        folder: root,
        concurrency: 1,
        resize: { width: 224, height: 224 },
        format: 'jpeg',
        quality: 90,
      }),
    ),
  );
  const rawRead = await time('raw read of the same files', () => pool((file) => readFile(file)));
  const keep = await time('imageSource: keep original bytes', () =>
    drain(imageSource({ folder: root, concurrency })),
  );
  await time('imageSource: keep original bytes, no sha256', () =>
    drain(imageSource({ folder: root, concurrency, keys: { sha256: false } })),
  );
  console.log(
    'mean file bytes',
    (await Promise.all(files.map((file) => readFile(file).then((data) => data.length)))).reduce(
      (a, b) => a + b,
      0,
    ) / files.length,
  );
  console.log(
    `ratio resize vs sharp alone: ${(ours / sharpAlone).toFixed(2)}x (issue asks >= 0.9x); concurrency 1: ${ones.toFixed(0)} images/s`,
  );
  console.log(`ratio keep-original vs raw read: ${(keep / rawRead).toFixed(2)}x (issue asks >= 0.5x)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
