import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { bytes, example, int64 } from '@tfpipe/core';
import { decodeImages, fixedLen, tfrecordDataset } from '@tfpipe/dataset/node';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import sharp from 'sharp';
import {
  timeRuns,
  type BenchCase,
  type SideContext,
  type SideDefinition,
  type SideResult,
} from '../harness.js';
import { imagesCase } from './images.js';

/** Images per batch: the `batchSize` of the parse, and the images in flight on both sides. */
const BATCH = 32;
const SIZE = 224;
const SPEC = { 'image/encoded': fixedLen([], 'string'), 'image/class/label': fixedLen([], 'int64') } as const;

const recordsFile = (context: SideContext): string => join(context.dataDirectory, 'images.tfrecord');

/** The JPEGs of case e in the order they were written to the TFRecord file. */
async function jpegPaths(dataDirectory: string): Promise<string[]> {
  const root = join(dataDirectory, 'images');
  const paths: string[] = [];
  for (const folder of (await readdir(root)).sort())
    for (const file of (await readdir(join(root, folder))).sort()) paths.push(join(root, folder, file));
  return paths;
}

/** `timeRuns` of `once` over `items` images, with the CPU time per image of every run in the note. */
async function timedWithCpu(
  context: SideContext,
  items: number,
  once: () => Promise<void>,
): Promise<SideResult> {
  let cpuMicroseconds = 0;
  let runs = 0;
  const result = await timeRuns(context.repeats, items, async () => {
    const before = process.cpuUsage();
    await once();
    const used = process.cpuUsage(before);
    cpuMicroseconds += used.user + used.system;
    runs++;
  });
  const perImage = cpuMicroseconds / 1000 / (runs * items);
  return { ...result, note: `CPU ${perImage.toFixed(2)} ms per image (all threads); ${result.note ?? ''}` };
}

/**
 * Our side: the fused parse, then `decodeImages` with `parallel` batches in flight; with `prefetch`,
 * one parsed batch read ahead (`.prefetch(1)`), so reading and parsing the next batch overlap this
 * one's decode while sharp still has only this batch's 32 images.
 */
function datasetSide(parallel: number, prefetch = false): SideDefinition {
  return {
    label: `tfpipe: tfrecordDataset(file).parse(spec, { batchSize: ${BATCH} })${prefetch ? '.prefetch(1)' : ''}.map(decodeImages(…, { resize })${parallel === 1 ? '' : `, { parallel: ${parallel} }`})`,
    async run(context) {
      const paths = await jpegPaths(context.dataDirectory);
      const parsed = tfrecordDataset(recordsFile(context)).parse(SPEC, { batchSize: BATCH });
      const dataset = (prefetch ? parsed.prefetch(1) : parsed).map(
        decodeImages('image/encoded', { resize: { height: SIZE, width: SIZE } }),
        { parallel },
      );
      return timedWithCpu(context, paths.length, async () => {
        let images = 0;
        for await (const batch of dataset) images += batch['image/encoded'].shape[0]!;
        if (images !== paths.length) throw new Error(`decoded ${images} images of ${paths.length}`);
      });
    },
  };
}

/**
 * Case e2: case e's JPEGs written as one TFRecord file, read back the way a training loop reads them:
 * `tfrecordDataset(file).parse(spec, { batchSize: 32 })` then `decodeImages` to 224 × 224 RGB uint8
 * (fit fill, linear kernel), against sharp alone decoding and resizing the same bytes, held in memory,
 * to raw pixels with the same options, 32 at once.
 */
export const imageBatchesCase: BenchCase = {
  name: 'image-batches',
  title: `e2. case e's JPEGs as TFRecords → parse + decodeImages to ${SIZE}×${SIZE} uint8, batches of ${BATCH}`,
  unit: 'images/s',
  async prepare(dataDirectory, scale, full) {
    const notes = await imagesCase.prepare(dataDirectory, scale, full);
    const paths = await jpegPaths(dataDirectory);
    const writer = await createTfrecordWriter({ path: join(dataDirectory, 'images.tfrecord'), fsync: false });
    await writer.write(
      await Promise.all(
        paths.map(async (path, index) =>
          example({ 'image/encoded': bytes(await readFile(path)), 'image/class/label': int64(index % 3) }),
        ),
      ),
    );
    await writer.close();
    return [
      ...notes.map((note) => note.replace(/, \d+ in flight.*$/, '')),
      `one TFRecord file; ${BATCH} images decoded at once on both sides (sharp's thread pool does the work)`,
    ];
  },
  sides: {
    dataset: datasetSide(1),
    'dataset-parallel-2': datasetSide(2),
    'dataset-prefetch': datasetSide(1, true),
    'sharp-alone': {
      label: `sharp alone: the same bytes (in memory) decoded and resized to raw RGB, ${BATCH} at once`,
      async run(context) {
        const images = await Promise.all(
          (await jpegPaths(context.dataDirectory)).map((path) => readFile(path)),
        );
        return timedWithCpu(context, images.length, async () => {
          for (let start = 0; start < images.length; start += BATCH)
            await Promise.all(
              images
                .slice(start, start + BATCH)
                .map((image) =>
                  sharp(image, { sequentialRead: true })
                    .toColourspace('srgb')
                    .removeAlpha()
                    .resize({ width: SIZE, height: SIZE, fit: 'fill', kernel: 'linear' })
                    .raw({ depth: 'uchar' })
                    .toBuffer(),
                ),
            );
        });
      },
    },
  },
  comparisons: [
    { ours: 'dataset', baseline: 'sharp-alone', target: 0.9 },
    // Two batches in flight: reading and parsing the next batch overlaps the decode of this one (64 images queued for sharp's threads instead of 32).
    { ours: 'dataset-parallel-2', baseline: 'sharp-alone' },
    // One parsed batch read ahead: the next batch's read and parse overlap this one's decode, 32 images queued for sharp as on the baseline.
    { ours: 'dataset-prefetch', baseline: 'sharp-alone' },
  ],
};
