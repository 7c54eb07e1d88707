import * as path from 'node:path';
import type { Feature } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { vocXml } from './__fixtures__/annotations.js';
import { collectAll, put, solid, eachTemporaryDirectory, value, values } from './__fixtures__/make-images.js';
import { raccoonExamples } from './__fixtures__/read-records.js';
import { imageSource } from './image-source.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

type Row = Record<string, Feature>;
const kinds = (row: Row): Record<string, string> =>
  Object.fromEntries(Object.entries(row).map(([key, feature]) => [key, feature.kind]));

// The keys and kinds both create_pascal_tf_record.py and create_coco_tf_record.py write
// (tensorflow/models research/object_detection/dataset_tools) ...
const DETECTION_KEYS = {
  'image/height': 'int64',
  'image/width': 'int64',
  'image/filename': 'bytes',
  'image/source_id': 'bytes',
  'image/key/sha256': 'bytes',
  'image/encoded': 'bytes',
  'image/format': 'bytes',
  'image/object/bbox/xmin': 'float',
  'image/object/bbox/xmax': 'float',
  'image/object/bbox/ymin': 'float',
  'image/object/bbox/ymax': 'float',
  'image/object/class/text': 'bytes',
  'image/object/class/label': 'int64',
};
// ... plus, for Pascal VOC:
const PASCAL_KEYS = {
  ...DETECTION_KEYS,
  'image/object/difficult': 'int64',
  'image/object/truncated': 'int64',
  'image/object/view': 'bytes',
};
// ... and for COCO (without masks and captions):
const COCO_KEYS = {
  ...DETECTION_KEYS,
  'image/object/is_crowd': 'int64',
  'image/object/area': 'float',
};

describe('Pascal VOC', () => {
  it('writes the key set and kinds of create_pascal_tf_record.py (plus image/channels), with exact boxes and flags', async () => {
    await put(dir, 'JPEGImages/b.png', await solid(200, 100, 3, 'png'));
    await put(dir, 'JPEGImages/a.png', await solid(50, 40, 3, 'png'));
    await put(
      dir,
      'Annotations/b.xml',
      vocXml('b.png', 200, 100, [
        { name: 'person', xmin: 10, ymin: 20, xmax: 110, ymax: 70, difficult: 1, pose: 'Left' },
        { name: 'dog', xmin: 0, ymin: 0, xmax: 200, ymax: 100, truncated: 1 },
      ]),
    );
    await put(dir, 'Annotations/a.xml', vocXml('a.png', 50, 40, []));
    const rows = (await collectAll(imageSource({ voc: path.join(dir, 'Annotations') }))) as Row[];
    expect(rows.map((row) => value(row['image/filename']))).toEqual(['a.png', 'b.png']);
    for (const row of rows) expect(kinds(row)).toEqual({ ...PASCAL_KEYS, 'image/channels': 'int64' });
    const b = rows[1]!;
    expect(values(b['image/object/bbox/xmin'])).toEqual([10 / 200, 0]);
    expect(values(b['image/object/bbox/ymin'])).toEqual([20 / 100, 0]);
    expect(values(b['image/object/bbox/xmax'])).toEqual([110 / 200, 1]);
    expect(values(b['image/object/bbox/ymax'])).toEqual([70 / 100, 1]);
    expect(values(b['image/object/class/text'])).toEqual(['person', 'dog']);
    expect(values(b['image/object/class/label'])).toEqual([2, 1]); // sorted names from 1: dog=1, person=2
    expect(values(b['image/object/difficult'])).toEqual([1, 0]);
    expect(values(b['image/object/truncated'])).toEqual([0, 1]);
    expect(values(b['image/object/view'])).toEqual(['Left', 'Unspecified']);
    expect(value(b['image/source_id'])).toBe('b.png');
    expect(values(rows[0]!['image/object/bbox/xmin'])).toEqual([]);
  });

  it('ignoreDifficult leaves difficult objects out', async () => {
    await put(dir, 'JPEGImages/a.png', await solid(10, 10, 3, 'png'));
    await put(
      dir,
      'Annotations/a.xml',
      vocXml('a.png', 10, 10, [
        { name: 'x', xmin: 1, ymin: 1, xmax: 5, ymax: 5, difficult: 1 },
        { name: 'x', xmin: 2, ymin: 2, xmax: 6, ymax: 6 },
      ]),
    );
    const [row] = (await collectAll(
      imageSource({ voc: path.join(dir, 'Annotations'), ignoreDifficult: true }),
    )) as Row[];
    expect(values(row!['image/object/bbox/xmin'])).toEqual([0.2]);
  });
});

describe('COCO', () => {
  it('writes the key set and kinds of create_coco_tf_record.py (plus image/channels), with category ids and exact boxes', async () => {
    await put(dir, 'imgs/000001.png', await solid(64, 32, 3, 'png'));
    const coco = {
      images: [{ id: 1, file_name: '000001.png', width: 64, height: 32 }],
      annotations: [
        { id: 10, image_id: 1, category_id: 18, bbox: [8, 4, 16, 8], iscrowd: 0, area: 100.5 },
        { id: 11, image_id: 1, category_id: 1, bbox: [0, 0, 64, 32], iscrowd: 1, area: 2048 },
      ],
      categories: [
        { id: 1, name: 'person' },
        { id: 18, name: 'dog' },
      ],
    };
    await put(dir, 'instances.json', JSON.stringify(coco));
    const source = imageSource({ coco: path.join(dir, 'instances.json'), images: path.join(dir, 'imgs') });
    const [row] = (await collectAll(source)) as Row[];
    expect(kinds(row!)).toEqual({ ...COCO_KEYS, 'image/channels': 'int64' });
    expect(value(row!['image/source_id'])).toBe('1');
    expect(values(row!['image/object/class/label'])).toEqual([18, 1]);
    expect(values(row!['image/object/class/text'])).toEqual(['dog', 'person']);
    expect(values(row!['image/object/bbox/xmin'])).toEqual([8 / 64, 0]);
    expect(values(row!['image/object/bbox/ymax'])).toEqual([12 / 32, 1]);
    expect(values(row!['image/object/is_crowd'])).toEqual([0, 1]);
    expect(values(row!['image/object/area'])).toEqual([100.5, 2048]);
  });

  it('scales area with the resize', async () => {
    await put(dir, 'a.png', await solid(100, 100, 3, 'png'));
    await put(
      dir,
      'c.json',
      JSON.stringify({
        images: [{ id: 1, file_name: 'a.png', width: 100, height: 100 }],
        annotations: [{ id: 1, image_id: 1, category_id: 1, bbox: [0, 0, 50, 50], area: 2500 }],
        categories: [{ id: 1, name: 'a' }],
      }),
    );
    const [row] = (await collectAll(
      imageSource({ coco: path.join(dir, 'c.json'), resize: { width: 50, height: 50 } }),
    )) as Row[];
    expect(values(row!['image/object/area'])).toEqual([625]);
  });
});

describe('the raccoon detection set written by the TF Object Detection tooling', () => {
  it('comes back with the same keys, kinds, bytes and boxes (float32 tolerance) through VOC XML', async () => {
    const originals = await raccoonExamples();
    expect(originals).toHaveLength(40);
    for (const features of originals) {
      const filename = value(features['image/filename']) as string;
      const width = value(features['image/width']) as number;
      const height = value(features['image/height']) as number;
      await put(dir, `JPEGImages/${filename}`, values(features['image/encoded'], true)[0] as Uint8Array);
      const box = (key: string, size: number): number[] =>
        (values(features[key]) as number[]).map((item) => Math.round(item * size));
      const xmin = box('image/object/bbox/xmin', width);
      const ymin = box('image/object/bbox/ymin', height);
      const xmax = box('image/object/bbox/xmax', width);
      const ymax = box('image/object/bbox/ymax', height);
      const names = values(features['image/object/class/text']) as string[];
      const objects = names.map((name, index) => ({
        name,
        xmin: xmin[index]!,
        ymin: ymin[index]!,
        xmax: xmax[index]!,
        ymax: ymax[index]!,
      }));
      await put(dir, `Annotations/${filename}.xml`, vocXml(filename, width, height, objects));
    }
    const rows = (await collectAll(imageSource({ voc: path.join(dir, 'Annotations') }))) as Row[];
    expect(rows).toHaveLength(40);
    const byName = new Map(rows.map((row) => [value(row['image/filename']), row]));
    for (const original of originals) {
      const row = byName.get(value(original['image/filename']))!;
      for (const [key, feature] of Object.entries(original)) {
        expect(row[key]?.kind, key).toBe(feature.kind);
        if (key === 'image/format') continue; // the raccoon tool wrote 'jpg'; TF's own scripts write 'jpeg', as we do
        if (key.startsWith('image/object/bbox/')) {
          const ours = values(row[key]) as number[];
          // Pixel / size in float64, narrowed to float32 as the wire does, equals what Python wrote.
          expect(
            ours.map((item) => Math.fround(item)),
            key,
          ).toEqual(values(feature));
          continue;
        }
        const bytesOf = (list: unknown[]): unknown[] =>
          list.map((item) => (item instanceof Uint8Array ? Buffer.from(item).toString('hex') : item));
        expect(bytesOf(values(row[key], true)), key).toEqual(bytesOf(values(feature, true)));
      }
      expect(value(row['image/format'])).toBe('jpeg');
    }
  });
});
