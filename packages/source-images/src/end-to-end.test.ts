// Images → TFRecord file → read back with our reader.
import * as path from 'node:path';
import sharp from 'sharp';
import type { Example } from '@tfpipe/core';
import { readExamples, tfrecordSink } from '@tfpipe/sink-tfrecord';
import { describe, expect, it } from 'vitest';
import { vocXml } from './__fixtures__/annotations.js';
import { markerImage, photo, put, eachTemporaryDirectory, values } from './__fixtures__/make-images.js';
import { imageExamples } from './image-examples.js';
import { imageSource } from './image-source.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

describe('end to end through @tfpipe/sink-tfrecord', () => {
  it('writes a TFRecord whose images decode to the expected size and pixels, with exact labels and boxes', async () => {
    const original = await photo(160, 120, 4);
    await put(dir, 'images/cat/a.jpg', original);
    await put(
      dir,
      'images/dog/b.png',
      await markerImage(80, 40, { left: 10, top: 10, width: 20, height: 10 }, 'png'),
    );
    const output = path.join(dir, 'out.tfrecord');
    await imageSource({
      folder: path.join(dir, 'images'),
      resize: { width: 80, height: 60, fit: 'fill' },
      format: 'jpeg',
      quality: 95,
    })
      .pipeThrough(imageExamples())
      .pipeTo(tfrecordSink({ path: output }));
    const read: Example[] = [];
    for await (const example of readExamples(output)) read.push(example);
    expect(read.map((example) => values(example.features['image/class/text']))).toEqual([['cat'], ['dog']]);
    expect(read.map((example) => values(example.features['image/class/label']))).toEqual([[0], [1]]);
    const decoded = await sharp(values(read[0]!.features['image/encoded'], true)[0] as Uint8Array)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([decoded.info.width, decoded.info.height]).toEqual([80, 60]);
    const reference = await sharp(original).resize({ width: 80, height: 60, fit: 'fill' }).raw().toBuffer();
    let total = 0;
    for (let index = 0; index < reference.length; index++)
      total += Math.abs(reference[index]! - decoded.data[index]!);
    expect(total / reference.length).toBeLessThan(6);
  });

  it('writes VOC boxes that read back as the float32 of pixel / size', async () => {
    await put(
      dir,
      'JPEGImages/a.png',
      await markerImage(90, 70, { left: 9, top: 7, width: 30, height: 21 }, 'png'),
    );
    await put(
      dir,
      'Annotations/a.xml',
      vocXml('a.png', 90, 70, [{ name: 'm', xmin: 9, ymin: 7, xmax: 39, ymax: 28 }]),
    );
    const output = path.join(dir, 'det.tfrecord');
    await imageSource({ voc: path.join(dir, 'Annotations') })
      .pipeThrough(imageExamples())
      .pipeTo(tfrecordSink({ path: output }));
    const read: Example[] = [];
    for await (const item of readExamples(output)) read.push(item);
    const [example] = read;
    expect(values(example!.features['image/object/bbox/xmin'])).toEqual([Math.fround(9 / 90)]);
    expect(values(example!.features['image/object/bbox/ymax'])).toEqual([Math.fround(28 / 70)]);
  });
});
