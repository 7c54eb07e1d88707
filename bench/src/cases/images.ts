import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { imageExamples, imageSource } from '@tfpipe/source-images';
import sharp from 'sharp';
import {
  random,
  removing,
  scaled,
  timeRuns,
  type BenchCase,
  type SideContext,
  type SideDefinition,
} from '../harness.js';
import { TFPIPE_BIN, baselineScript, processSide } from '../process-side.js';

const IMAGES = 300;
const CLASSES = ['cat', 'dog', 'fox'];
/** Images in flight, for our source and for the sharp-alone baseline alike. */
const IN_FLIGHT = 4;

async function imagePaths(root: string): Promise<string[]> {
  const paths: string[] = [];
  for (const name of CLASSES) {
    for (const file of await readdir(join(root, name))) paths.push(join(root, name, file));
  }
  return paths;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** The output of {@link convert}. */
const outputOf = (context: SideContext, resize: boolean): string =>
  join(context.workDirectory, resize ? 'resized.tfrecord' : 'original.tfrecord');

async function convert(context: SideContext, resize: boolean, sha256 = true): Promise<void> {
  const output = outputOf(context, resize);
  const source = imageSource({
    folder: join(context.dataDirectory, 'images'),
    concurrency: IN_FLIGHT,
    ...(sha256 ? {} : { keys: { sha256: false as const } }),
    ...(resize
      ? { resize: { width: 224, height: 224, fit: 'cover' as const }, format: 'jpeg' as const, quality: 90 }
      : {}),
  });
  await pipeline(source, imageExamples(), tfrecordSink({ path: output, fsync: false })).run();
}

/** A side that runs our pipeline over the images (see {@link convert}). */
function pipelineSide(label: string, resize: boolean, sha256 = true): SideDefinition {
  return {
    label,
    run: (context) =>
      timeRuns(
        context.repeats,
        scaled(IMAGES, context.scale, CLASSES.length),
        () => convert(context, resize, sha256),
        undefined,
        removing(outputOf(context, resize)),
      ),
  };
}

/** A baseline side that does `work` to every image file, {@link IN_FLIGHT} at once. */
function perFileSide(label: string, work: (path: string) => Promise<unknown>): SideDefinition {
  return {
    label,
    async run(context) {
      const paths = await imagePaths(join(context.dataDirectory, 'images'));
      return timeRuns(context.repeats, paths.length, () => eachLimited(paths, IN_FLIGHT, work));
    },
  };
}

/** Case e: 300 generated 640×480 JPEGs in class folders → 224×224 JPEG TFRecords, and kept as they are. */
export const imagesCase: BenchCase = {
  name: 'images',
  title: 'e. 300 JPEGs 640×480 (class folders) → TFRecord',
  unit: 'images/s',
  async prepare(dataDirectory, scale) {
    const next = random(11);
    const count = scaled(IMAGES, scale, CLASSES.length);
    let bytes = 0;
    for (let index = 0; index < count; index++) {
      const folder = join(dataDirectory, 'images', CLASSES[index % CLASSES.length]!);
      await mkdir(folder, { recursive: true });
      // A gradient plus noise, so the JPEGs are of a realistic size rather than flat colour.
      const pixels = Buffer.alloc(640 * 480 * 3);
      const shade = Math.floor(next() * 128);
      for (let offset = 0; offset < pixels.length; offset++) {
        pixels[offset] = (shade + ((offset / 3) % 640) / 5 + Math.floor(next() * 40)) & 0xff;
      }
      const info = await sharp(pixels, { raw: { width: 640, height: 480, channels: 3 } })
        .jpeg({ quality: 90 })
        .toFile(join(folder, `${String(index).padStart(4, '0')}.jpg`));
      bytes += info.size;
    }
    return [
      `${count} JPEGs, ${(bytes / 1e6).toFixed(1)} MB, ${IN_FLIGHT} in flight on both sides (resizing, tfpipe also reads the next ${IN_FLIGHT} files ahead)`,
    ];
  },
  sides: {
    resize: pipelineSide('tfpipe resize→JPEG', true),
    'sharp-alone': perFileSide('sharp alone, same transform', async (path) =>
      sharp(await readFile(path))
        .rotate()
        .resize(224, 224, { fit: 'cover' })
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
    'cli-resize': processSide({
      label: 'tfpipe convert images/ out.tfrecord --resize 224x224 (the CLI process)',
      items: IMAGES,
      minimumItems: CLASSES.length,
      args: (context) => [
        TFPIPE_BIN,
        'convert',
        join(context.dataDirectory, 'images'),
        join(context.workDirectory, 'cli.tfrecord'),
        '--resize',
        '224x224',
        '--fit',
        'cover',
        '--format',
        'jpeg',
        '--quality',
        '90',
        '--quiet',
      ],
      output: (context) => join(context.workDirectory, 'cli.tfrecord'),
    }),
    'sharp-process': processSide({
      label: `sharp alone, same transform, ${IN_FLIGHT} in flight (a node process)`,
      items: IMAGES,
      minimumItems: CLASSES.length,
      args: (context) => [
        baselineScript('sharp-resize'),
        join(context.dataDirectory, 'images'),
        String(IN_FLIGHT),
      ],
    }),
    original: pipelineSide('tfpipe keep original bytes', false),
    'raw-read': perFileSide('fs.readFile of the files', (path) => readFile(path)),
    // What the default keys cost: image/key/sha256 hashes every image (~55 µs for 110 KB here), as
    // much CPU as the raw read's whole per-image time. These two lines show that share.
    'original-unhashed': pipelineSide('tfpipe keep original bytes, image/key/sha256 off', false, false),
    'raw-read-hashed': perFileSide('fs.readFile + SHA-256 of the files', async (path) =>
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    ),
  },
  comparisons: [
    { ours: 'resize', baseline: 'sharp-alone', target: 0.9 },
    // Issue 22's target for the CLI, end to end.
    { ours: 'cli-resize', baseline: 'sharp-process', target: 0.9 },
    { ours: 'original', baseline: 'raw-read', target: 0.5 },
    { ours: 'original-unhashed', baseline: 'raw-read' },
    { ours: 'original', baseline: 'raw-read-hashed' },
  ],
};
