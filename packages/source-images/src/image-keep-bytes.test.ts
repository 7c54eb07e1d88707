// Keep mode end to end: every feature of every written record against values computed here from
// the files alone (node:crypto, UTF-8, sharp's metadata), and the same file under every flag set
// that must not change a byte (concurrency, lending or not, reader threads or not).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import sharp from 'sharp';
import { pipeline, reportOf, TfpipeError, type Example } from '@tfpipe/core';
import { readExamples, tfrecordSink } from '@tfpipe/sink-tfrecord';
import { afterEach, describe, expect, it } from 'vitest';
import {
  eachTemporaryDirectory,
  markerImage,
  photo,
  put,
  solid,
  values,
} from './__fixtures__/make-images.js';
import { buildImageRecord } from './image-record.js';
import { DEFAULT_IMAGE_KEYS, resolveImageKeys } from './image-keys.js';
import { imageExamples } from './image-examples.js';
import { imageSource, type ImageSourceDetails } from './image-source.js';
import { stopImageReaders } from './processing/read-image-file.js';
import type { ImageTask } from './inputs/image-task.js';
import type { ProcessedImage } from './processing/process-image.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));
afterEach(() => stopImageReaders());

const LONG_NAME = `${'n'.repeat(70)}.jpg`;

/** Class folders of JPEG, PNG with alpha, grey, EXIF-rotated, duplicated bytes and odd names. */
async function tree(): Promise<Map<string, Buffer>> {
  const jpeg = await photo(96, 64, 3);
  const alpha = await solid(30, 20, 4, 'png');
  const files = new Map<string, Buffer>([
    ['cat/a.jpg', jpeg],
    ['cat/ü-名前.jpg', jpeg], // the same bytes under a name that is not ASCII
    ['cat/grey.jpg', await solid(17, 9, 1, 'jpeg')],
    ['dog/alpha.png', alpha],
    ['dog/grey-alpha.png', await solid(12, 12, 2, 'png')],
    ['dog/exif6.jpg', await markerImage(40, 24, { left: 2, top: 3, width: 5, height: 6 }, 'jpeg', 6)],
    [`fox/${LONG_NAME}`, await photo(300, 200, 9)],
    ['fox/dup.png', alpha],
  ]);
  for (const [name, data] of files) await put(dir, `images/${name}`, data);
  return files;
}

/** The features a kept file's record must have, computed from the file alone. */
async function expected(name: string, data: Buffer): Promise<Record<string, unknown[]>> {
  const metadata = await sharp(data).metadata();
  const className = name.split('/')[0]!;
  return {
    'image/encoded': [data.toString('latin1')],
    'image/format': [metadata.format],
    'image/height': [metadata.height],
    'image/width': [metadata.width],
    'image/channels': [metadata.channels],
    'image/filename': [name],
    'image/source_id': [name],
    'image/key/sha256': [createHash('sha256').update(data).digest('hex')],
    'image/class/label': [['cat', 'dog', 'fox'].indexOf(className)],
    'image/class/text': [className],
  };
}

/** Every feature of a record read back, bytes as latin1 for `image/encoded`, UTF-8 otherwise. */
function features(example: Example): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [name, feature] of Object.entries(example.features)) {
    out[name] =
      name === 'image/encoded'
        ? values(feature, true).map((item) => Buffer.from(item as Uint8Array).toString('latin1'))
        : values(feature);
  }
  return out;
}

describe('keep mode writes each file as it is, whatever the flags', () => {
  it('gives every record the file bytes, hash, names, sizes and class computed from the file alone, under each flag set', async () => {
    const files = await tree();
    const folder = path.join(dir, 'images');
    const runs: Record<string, { through: 'pipeline' | 'pipeTo'; concurrency?: number }> = {
      default: { through: 'pipeline' },
      one: { through: 'pipeline', concurrency: 1 },
      five: { through: 'pipeline', concurrency: 5 },
      'not lent': { through: 'pipeTo', concurrency: 3 },
    };
    const outputs: Buffer[] = [];
    for (const [label, run] of Object.entries(runs)) {
      const output = path.join(dir, `${label}.tfrecord`);
      const source = imageSource({
        folder,
        ...(run.concurrency === undefined ? {} : { concurrency: run.concurrency }),
      });
      if (run.through === 'pipeline') {
        await pipeline(source, imageExamples(), tfrecordSink({ path: output })).run();
        expect((reportOf(source)!.details as unknown as ImageSourceDetails).lending, label).toBe(true);
      } else {
        await source.pipeThrough(imageExamples()).pipeTo(tfrecordSink({ path: output }));
      }
      const names = [...files.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      let index = 0;
      for await (const example of readExamples(output)) {
        const name = names[index++]!;
        expect(features(example), `${label}: ${name}`).toEqual(await expected(name, files.get(name)!));
      }
      expect(index, label).toBe(files.size);
      outputs.push(await readFile(output));
      await stopImageReaders(); // the next run starts its reader threads afresh
    }
    for (const output of outputs.slice(1)) expect(output.equals(outputs[0]!)).toBe(true);
  });
});

describe('reader threads that stop in the middle of a run', () => {
  it('fail the run with one fatal INTERNAL error naming the next image, also under skip', async () => {
    const files: string[] = [];
    for (let index = 0; index < 12; index++)
      files.push(
        await put(dir, `images/cat/${String(index).padStart(2, '0')}.jpg`, await photo(40, 30, index)),
      );
    const reader = imageSource({
      folder: path.join(dir, 'images'),
      concurrency: 4,
      onError: 'skip',
    }).getReader();
    expect((await reader.read()).done).toBe(false);
    // The reads that the first record's delivery started are queued, not sent yet: they go with the threads.
    await stopImageReaders();
    let records = 1;
    let error: unknown;
    try {
      while (!(await reader.read()).done) records++;
    } catch (thrown) {
      error = thrown;
    }
    expect(TfpipeError.is(error)).toBe(true);
    expect((error as TfpipeError).code).toBe('INTERNAL');
    expect((error as TfpipeError).fatal).toBe(true);
    expect((error as TfpipeError).position.file).toBe(files[records]);
    expect(records).toBeLessThan(files.length);
  });
});

describe('buildImageRecord', () => {
  it('encodes names, the format, the hash and the class as UTF-8, as Buffer.from does, short or long, ASCII or not', () => {
    const texts = [
      '',
      'a',
      'jpeg',
      'x'.repeat(64),
      'y'.repeat(65),
      LONG_NAME,
      'ü-名前.jpg',
      'emoji 😀.png',
      'lone \ud800 surrogate',
      'del \u007f and nul \u0000',
      `${'a'.repeat(63)}é`,
    ];
    const keys = resolveImageKeys();
    for (const text of texts) {
      const task = {
        path: `/images/${text}`,
        filename: text,
        sourceId: `${text}!`,
        label: { id: 1, text },
      } as unknown as ImageTask;
      const image = {
        encoded: new Uint8Array([1, 2, 3]),
        format: 'jpeg',
        size: { width: 1, height: 1 },
        channels: 3,
        sha256: text,
        objects: undefined,
        bytesRead: 3,
        droppedObjects: 0,
      } as unknown as ProcessedImage;
      const row = buildImageRecord(task, image, keys);
      const bytesOf = (key: string): Buffer[] =>
        values(row[key], true).map((item) => Buffer.from(item as Uint8Array));
      for (const key of [DEFAULT_IMAGE_KEYS.filename, DEFAULT_IMAGE_KEYS.sha256, DEFAULT_IMAGE_KEYS.text])
        expect(bytesOf(key), `${key} of ${JSON.stringify(text)}`).toEqual([Buffer.from(text, 'utf8')]);
      expect(bytesOf(DEFAULT_IMAGE_KEYS.sourceId)).toEqual([Buffer.from(`${text}!`, 'utf8')]);
      expect(bytesOf(DEFAULT_IMAGE_KEYS.format)).toEqual([Buffer.from('jpeg')]);
    }
  });
});
