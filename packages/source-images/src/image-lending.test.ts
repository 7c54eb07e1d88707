// Kept images' memory lent to the sink and taken back (core's lendIfSafe), end to end.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import {
  KNOWN_CRC_MIN_BYTES,
  knownCrc32c,
  markLending,
  STAGE_PASSES_RELEASE,
  RELEASE_HOOK,
} from '@tfpipe/core/internal';
import { pipeline, type Example } from '@tfpipe/core';
import { readExamples, tfrecordSink } from '@tfpipe/sink-tfrecord';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachTemporaryDirectory, photo, put, value, values } from './__fixtures__/make-images.js';
import { imageExamples } from './image-examples.js';
import { imageSource } from './image-source.js';
import { stopImageReaders } from './processing/read-image-file.js';
import { reads, resetReads } from './__fixtures__/read-tracking.js';

vi.mock('./processing/read-image-file.js', async (original) =>
  (await import('./__fixtures__/read-tracking.js')).tracking(await original()),
);

let dir: string;
eachTemporaryDirectory((made) => (dir = made));
afterEach(() => stopImageReaders());

/** A class-folder tree of JPEGs of different sizes (so that later ones land in earlier ones' buffers). */
async function tree(): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (let index = 0; index < 24; index++) {
    const name = `${['cat', 'dog'][index % 2]}/${String(index).padStart(2, '0')}.jpg`;
    const data = await photo(64 + ((index * 37) % 300), 48 + ((index * 53) % 200), index);
    await put(dir, `images/${name}`, data);
    files.set(path.basename(name), data);
  }
  return files;
}

/** A stage that passes records on but keeps them, to look at afterwards; `marked` claims it keeps none. */
function keeping(marked: boolean): { stage: TransformStream<Example, Example>; kept: Example[] } {
  const kept: Example[] = [];
  const stage = new TransformStream<Example, Example>({
    transform(record, controller) {
      kept.push(record);
      controller.enqueue(record);
    },
  });
  return { stage: marked ? markLending(stage, STAGE_PASSES_RELEASE) : stage, kept };
}

const encoded = (record: Example): Uint8Array =>
  values(record.features['image/encoded'], true)[0] as Uint8Array;

/** Checks that `output` holds one record per file, each image what `expected` gives for its file. */
async function expectImages(
  output: string,
  files: Map<string, Buffer>,
  expected: (data: Buffer) => Buffer | Promise<Buffer> = (data) => data,
): Promise<void> {
  let count = 0;
  for await (const record of readExamples(output)) {
    const name = path.basename(value(record.features['image/filename']) as string);
    expect(Buffer.from(encoded(record)).equals(await expected(files.get(name)!))).toBe(true);
    count++;
  }
  expect(count).toBe(files.size);
}

describe('imageSource lends kept images to a sink that releases them', () => {
  it('writes the same file as a run that does not lend, with every image byte for byte', async () => {
    const files = await tree();
    const folder = path.join(dir, 'images');
    /** Keeps every image of the folder, through a stage that keeps its records, to `name`. */
    const convert = async (name: string, marked: boolean): Promise<{ kept: Example[]; output: string }> => {
      const { stage, kept } = keeping(marked);
      const output = path.join(dir, name);
      await pipeline(
        imageSource({ folder, concurrency: 3 }),
        imageExamples(),
        stage,
        tfrecordSink({ path: output }),
      ).run();
      return { kept, output };
    };
    const { kept: lentKept, output: lentPath } = await convert('lent.tfrecord', true);
    // Lent: every record carries its release. Once written, its bytes go back to a reader thread with
    // the next request (the view reads empty then): all but the last few, which no request followed.
    expect(lentKept).toHaveLength(files.size);
    expect(lentKept.every((record) => RELEASE_HOOK in record)).toBe(true);
    const detached = lentKept.filter((record) => encoded(record).byteLength === 0).length;
    expect(detached).toBeGreaterThanOrEqual(files.size / 2);
    // Lent images of 16 KiB or more come with the CRC-32C their reader thread computed.
    const large = (record: Example): boolean =>
      files.get(path.basename(value(record.features['image/filename']) as string))!.length >=
      KNOWN_CRC_MIN_BYTES;
    expect(lentKept.filter(large).length).toBeGreaterThan(0);
    for (const record of lentKept) {
      expect(knownCrc32c(encoded(record)) !== undefined).toBe(large(record));
    }

    const { kept: ownKept, output: plainPath } = await convert('plain.tfrecord', false);
    // A stage of yours in the run: nothing is lent, the records keep their bytes (and no known CRC).
    expect(ownKept).toHaveLength(files.size);
    expect(ownKept.every((record) => knownCrc32c(encoded(record)) === undefined)).toBe(true);
    for (const record of ownKept) {
      const name = path.basename(value(record.features['image/filename']) as string);
      expect(Buffer.from(encoded(record)).equals(files.get(name)!)).toBe(true);
    }

    expect((await readFile(lentPath)).equals(await readFile(plainPath))).toBe(true);
    await expectImages(lentPath, files);
  });

  it('lends images that sharp has checked (verify: decode) once sharp is done with them', async () => {
    const files = await tree();
    const spy = keeping(true);
    const output = path.join(dir, 'verified.tfrecord');
    await pipeline(
      imageSource({ folder: path.join(dir, 'images'), verify: 'decode' }),
      imageExamples(),
      spy.stage,
      tfrecordSink({ path: output }),
    ).run();
    expect(spy.kept).toHaveLength(files.size);
    expect(spy.kept.every((record) => RELEASE_HOOK in record)).toBe(true);
    await expectImages(output, files);
  });

  it("gives a decoded image's input back once sharp is done, and sharp's output stays right", async () => {
    const files = await tree();
    resetReads();
    const output = path.join(dir, 'resized.tfrecord');
    // Not lent (a stage of yours in the run): the input goes back all the same, it is ours alone.
    const spy = keeping(false);
    const resize = { width: 40, height: 30, fit: 'fill' as const };
    await pipeline(
      imageSource({ folder: path.join(dir, 'images'), resize, format: 'png', concurrency: 3 }),
      imageExamples(),
      spy.stage,
      tfrecordSink({ path: output }),
    ).run();
    expect(reads.list).toHaveLength(files.size);
    expect(reads.list.every((read) => read.givenBack)).toBe(true);
    expect(spy.kept.every((record) => !(RELEASE_HOOK in record))).toBe(true);
    // Later files were read into earlier ones' buffers while sharp's cache held the earlier loads:
    // each output is still what sharp makes of that file on its own (PNG: exact).
    await expectImages(output, files, (data) => sharp(data).autoOrient().resize(resize).png().toBuffer());
  });
});
