import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import sharp from 'sharp';
import { positionOf, reportOf } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import {
  collectAll,
  photo,
  put,
  solid,
  eachTemporaryDirectory,
  value,
  values,
} from './__fixtures__/make-images.js';
import { imageSource } from './image-source.js';
import { formatLabelMap, writeLabelMap } from './label-map.js';
import { sharpRequests } from './load-sharp.js';
import type { LabelMap } from './inputs/image-task.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

type Row = Record<string, unknown>;

describe('class-folder trees', () => {
  it('numbers classes by the UTF-8 byte order of their names and keeps each file byte for byte', async () => {
    // Byte order puts "Zebra" before "ant" and "ant" before "émeu"; a locale sort would not.
    const files: Record<string, Buffer> = {
      'ant/2.jpg': await photo(32, 24, 1),
      'ant/10.png': await solid(20, 10, 4, 'png'),
      'Zebra/a.webp': await solid(12, 16, 3, 'webp'),
      'émeu/x.jpeg': await solid(9, 7, 1, 'jpeg'),
    };
    for (const [name, data] of Object.entries(files)) await put(dir, name, data);
    await put(dir, 'ant/notes.txt', 'not listed: wrong extension');
    await put(dir, 'stray.jpg', await photo(8, 8, 2)); // files directly under the root are ignored
    const sharpBefore = sharpRequests();
    const source = imageSource({ folder: dir });
    const rows = (await collectAll(source)) as Row[];
    expect(sharpRequests(), 'headers read without sharp').toBe(sharpBefore);
    expect(rows.map((row) => value(row['image/filename']))).toEqual([
      'Zebra/a.webp',
      'ant/10.png',
      'ant/2.jpg',
      'émeu/x.jpeg',
    ]);
    expect(rows.map((row) => value(row['image/class/label']))).toEqual([0, 1, 1, 2]);
    expect(rows.map((row) => value(row['image/class/text']))).toEqual(['Zebra', 'ant', 'ant', 'émeu']);
    expect(rows.map((row) => value(row['image/format']))).toEqual(['webp', 'png', 'jpeg', 'jpeg']);
    expect(
      rows.map((row) => [
        value(row['image/width']),
        value(row['image/height']),
        value(row['image/channels']),
      ]),
    ).toEqual([
      [12, 16, 3],
      [20, 10, 4],
      [32, 24, 3],
      [9, 7, 1],
    ]);
    for (const row of rows) {
      const name = value(row['image/filename']) as string;
      const encoded = values(row['image/encoded'], true)[0] as Uint8Array;
      expect(Buffer.from(encoded).equals(files[name]!)).toBe(true);
      expect(value(row['image/key/sha256'])).toBe(createHash('sha256').update(files[name]!).digest('hex'));
      expect(value(row['image/source_id'])).toBe(name);
    }
    const report = reportOf(source)!;
    expect(report.records).toBe(4);
    expect(report.bytes).toBe(Object.values(files).reduce((sum, data) => sum + data.length, 0));
    expect(report.details?.['labelMap']).toEqual([
      { id: 0, name: 'Zebra' },
      { id: 1, name: 'ant' },
      { id: 2, name: 'émeu' },
    ]);
    expect(positionOf(rows[2])).toEqual({ file: path.join(dir, 'ant/2.jpg'), recordIndex: 2 });
  });

  it('reads the format from the content, not the extension', async () => {
    await put(dir, 'cat/really-a-png.jpg', await solid(5, 5, 3, 'png'));
    const [row] = (await collectAll(imageSource({ folder: dir }))) as Row[];
    expect(value(row!['image/format'])).toBe('png');
  });

  it('uses classNames for a fixed id order, starting at labelBase', async () => {
    await put(dir, 'cat/1.png', await solid(4, 4, 3, 'png'));
    await put(dir, 'dog/1.png', await solid(4, 4, 3, 'png'));
    const rows = (await collectAll(
      imageSource({ folder: dir, classNames: ['dog', 'cat', 'bird'], labelBase: 1 }),
    )) as Row[];
    expect(rows.map((row) => [value(row['image/class/text']), value(row['image/class/label'])])).toEqual([
      ['dog', 1],
      ['cat', 2],
    ]);
  });

  it('re-encodes with resize, colour and quality, and emits raw HWC pixels with a shape', async () => {
    await put(dir, 'a/photo.jpg', await photo(64, 48, 3));
    const [jpeg] = (await collectAll(
      imageSource({
        folder: dir,
        resize: { width: 16, height: 16 },
        channels: 'grayscale',
        format: 'jpeg',
        quality: 80,
      }),
    )) as Row[];
    const encoded = values(jpeg!['image/encoded'], true)[0] as Uint8Array;
    const metadata = await sharp(encoded).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.channels]).toEqual([
      'jpeg',
      16,
      16,
      1,
    ]);
    expect([
      value(jpeg!['image/width']),
      value(jpeg!['image/height']),
      value(jpeg!['image/channels']),
    ]).toEqual([16, 16, 1]);
    expect(value(jpeg!['image/key/sha256'])).toBe(createHash('sha256').update(encoded).digest('hex'));

    const [raw] = (await collectAll(
      imageSource({ folder: dir, raw: true, resize: { width: 8, height: 6, fit: 'fill' } }),
    )) as Row[];
    expect(value(raw!['image/format'])).toBe('raw');
    expect(values(raw!['image/shape'])).toEqual([6, 8, 3]);
    const pixels = values(raw!['image/encoded'], true)[0] as Uint8Array;
    const expected = await sharp(await readFile(path.join(dir, 'a/photo.jpg')))
      .resize({ width: 8, height: 6, fit: 'fill' })
      .raw()
      .toBuffer();
    expect(Buffer.from(pixels).equals(expected)).toBe(true);
  });

  it('converts RGBA and grey inputs to 3-channel RGB with channels: rgb', async () => {
    await put(dir, 'a/rgba.png', await solid(6, 6, 4, 'png'));
    await put(dir, 'a/grey.png', await solid(6, 6, 1, 'png'));
    const rows = (await collectAll(imageSource({ folder: dir, channels: 'rgb', format: 'png' }))) as Row[];
    for (const row of rows) {
      expect(value(row['image/channels'])).toBe(3);
      expect((await sharp(values(row['image/encoded'], true)[0] as Uint8Array).metadata()).channels).toBe(3);
    }
  });
});

describe('list files', () => {
  it('reads a CSV list with name labels and extra columns, paths relative to the list', async () => {
    await put(dir, 'imgs/a.png', await solid(3, 3, 3, 'png'));
    await put(dir, 'imgs/b.png', await solid(4, 3, 3, 'png'));
    await put(dir, 'train.csv', 'path,label,weight\r\nimgs/b.png,dog,"0.5"\nimgs/a.png,cat,2\n');
    const source = imageSource({ list: path.join(dir, 'train.csv') });
    const rows = (await collectAll(source)) as Row[];
    expect(
      rows.map((row) => [
        value(row['image/filename']),
        value(row['image/class/label']),
        value(row['image/class/text']),
        row['weight'],
      ]),
    ).toEqual([
      ['imgs/b.png', 1, 'dog', '0.5'],
      ['imgs/a.png', 0, 'cat', '2'],
    ]);
    expect(positionOf(rows[1])).toMatchObject({ line: 3, recordIndex: 1 });
    expect(reportOf(source)!.details?.['labelMap']).toEqual([
      { id: 0, name: 'cat' },
      { id: 1, name: 'dog' },
    ]);
  });

  it('reads a JSON Lines list with integer labels as ids and no class text', async () => {
    await put(dir, 'a.png', await solid(3, 3, 3, 'png'));
    await put(
      dir,
      'list.jsonl',
      '{"path":"a.png","label":7,"split":"train"}\n\n{"path":"a.png","label":3}\n',
    );
    const rows = (await collectAll(imageSource({ list: path.join(dir, 'list.jsonl') }))) as Row[];
    expect(rows.map((row) => value(row['image/class/label']))).toEqual([7, 3]);
    expect(rows[0]!['image/class/text']).toBeUndefined();
    expect(rows[0]!['split']).toBe('train');
  });

  it('renames and drops keys with the keys option', async () => {
    await put(dir, 'c/a.png', await solid(3, 3, 3, 'png'));
    const [row] = (await collectAll(
      imageSource({ folder: dir, keys: { encoded: 'img', sha256: false } }),
    )) as Row[];
    expect(Object.keys(row!).sort()).toEqual(
      [
        'image/channels',
        'image/class/label',
        'image/class/text',
        'image/filename',
        'image/format',
        'image/height',
        'image/source_id',
        'image/width',
        'img',
      ].sort(),
    );
  });
});

describe('label maps', () => {
  const map: LabelMap = [
    { id: 1, name: 'cat' },
    { id: 2, name: 'dog "husky"' },
  ];

  it('writes labels.txt as TF-slim does, JSON as class_to_idx, and pbtxt as the Object Detection API reads it', async () => {
    await writeLabelMap(path.join(dir, 'labels.txt'), map);
    await writeLabelMap(path.join(dir, 'labels.json'), map);
    await writeLabelMap(path.join(dir, 'label_map.pbtxt'), map);
    expect(await readFile(path.join(dir, 'labels.txt'), 'utf8')).toBe('1:cat\n2:dog "husky"\n');
    expect(JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8'))).toEqual({
      cat: 1,
      'dog "husky"': 2,
    });
    expect(await readFile(path.join(dir, 'label_map.pbtxt'), 'utf8')).toBe(
      'item {\n  id: 1\n  name: "cat"\n}\n\nitem {\n  id: 2\n  name: "dog \\"husky\\""\n}\n',
    );
  });

  it('refuses a pbtxt map that gives id 0 to a real class', () => {
    expect(() => formatLabelMap([{ id: 0, name: 'cat' }], 'pbtxt')).toThrow(/reserves id 0/);
  });
});
