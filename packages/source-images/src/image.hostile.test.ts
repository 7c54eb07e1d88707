// Hostile inputs, each bounded in time and memory (CI, 2 cores): FIFOs and devices where an image
// is expected, files too large to read, headers that lie, annotation files that break the parser,
// and inputs that would silently yield nothing. Real files, real mkfifo, real sharp.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate } from 'node:fs/promises';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { reportOf, TfpipeError } from '@tfpipe/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { vocXml } from './__fixtures__/annotations.js';
import { collectAll, eachTemporaryDirectory, photo, put, solid, value } from './__fixtures__/make-images.js';
import type { ImageRecord } from './image-record.js';
import { imageSource } from './image-source.js';
import type { ImageSourceOptions } from './image-source-options.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

const linux = process.platform === 'linux';
if (!linux) console.log('image.hostile: FIFO and /dev cases skipped (Linux only)');

/** The error the source fails with (a test timeout, not a hang, when it never settles). */
async function failure(options: ImageSourceOptions): Promise<TfpipeError> {
  try {
    await collectAll(imageSource(options));
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the source to fail');
}

/** Rows and the report of a run under `onError: 'skip'`. */
async function skipping(
  options: ImageSourceOptions,
): Promise<{ rows: ImageRecord[]; skipped: readonly TfpipeError[] }> {
  const source = imageSource({ ...options, onError: 'skip' });
  const rows = await collectAll(source);
  return { rows, skipped: reportOf(source)!.skippedErrors as TfpipeError[] };
}

describe('paths that are no regular file are refused before they are opened', () => {
  it.skipIf(!linux)(
    'a symlink to a FIFO inside a class folder: INPUT_NOT_FILE naming the link, skippable',
    { timeout: 5000 },
    async () => {
      await put(dir, 'cat/a.png', await solid(4, 4, 3, 'png'));
      await mkdir(path.join(dir, '.pipes'));
      execFileSync('mkfifo', [path.join(dir, '.pipes', 'pipe')]);
      const link = path.join(dir, 'cat', 'b.jpg');
      await symlink('../.pipes/pipe', link);
      const { rows, skipped } = await skipping({ folder: dir });
      expect(rows).toHaveLength(1);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toMatchObject({ code: 'INPUT_NOT_FILE', position: { file: link, recordIndex: 1 } });
      expect(skipped[0]!.message).toContain('a FIFO');
      expect((await failure({ folder: dir })).code).toBe('INPUT_NOT_FILE');
    },
  );

  it.skipIf(!linux)(
    'a character device (/dev/zero) named by a list: INPUT_NOT_FILE, nothing read',
    { timeout: 5000 },
    async () => {
      const list = await put(dir, 'list.csv', 'path,label\nzero,0\n');
      const error = await failure({ list, images: '/dev' });
      expect(error).toMatchObject({ code: 'INPUT_NOT_FILE', position: { file: '/dev/zero' } });
      expect(error.message).toContain('a character device');
      // Before: /dev/zero was read until the buffer overflowed (4.3 GB), then mislabelled INPUT_NOT_FOUND.
      expect(process.memoryUsage().rss).toBeLessThan(1024 ** 3);
    },
  );
});

describe('maxFileBytes', () => {
  it(
    'refuses a 3 GB file from its size, without reading it: IMAGE_TOO_LARGE with the size',
    {
      timeout: 5000,
    },
    async () => {
      const file = await put(dir, 'cat/huge.jpg', await photo(16, 16, 1));
      await truncate(file, 3 * 1024 ** 3); // sparse: no disk space, no time
      const { rows, skipped } = await skipping({ folder: dir });
      expect(rows).toHaveLength(0);
      expect(skipped[0]).toMatchObject({ code: 'IMAGE_TOO_LARGE', position: { file } });
      expect(skipped[0]!.message).toContain(`${3 * 1024 ** 3} bytes`);
      expect(skipped[0]!.message).toContain('maxFileBytes (268435456)');
    },
  );

  it('refuses files over a lower maxFileBytes and keeps those at it', async () => {
    const small = await photo(16, 16, 1);
    await put(dir, 'cat/a.jpg', small);
    await put(dir, 'cat/b.jpg', await photo(64, 64, 2));
    const { rows, skipped } = await skipping({ folder: dir, maxFileBytes: small.length });
    expect(rows.map((row) => value(row['image/filename']))).toEqual(['cat/a.jpg']);
    expect(skipped.map((error) => error.code)).toEqual(['IMAGE_TOO_LARGE']);
  });

  it('is checked when the source is made', () => {
    for (const maxFileBytes of [0, 1.5, 2 ** 31]) {
      expect(() => imageSource({ folder: dir, maxFileBytes })).toThrow(
        /imageSource option maxFileBytes: expected a whole number from 1 to 2147483647/,
      );
    }
  });
});

/** A PNG of `width` x `height` whose IHDR is edited to claim `claimed` (IHDR CRC fixed). */
async function lyingPng(claimed: { width: number; height: number }): Promise<Buffer> {
  const png = Buffer.from(await solid(8, 8, 3, 'png'));
  png.writeUInt32BE(claimed.width, 16);
  png.writeUInt32BE(claimed.height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('a PNG header that claims more pixels than its data can hold', () => {
  it('is IMAGE_DECODE in keep mode, never written as 16383x16383', async () => {
    const file = await put(dir, 'cat/a.png', await lyingPng({ width: 16383, height: 16383 }));
    const error = await failure({ folder: dir });
    expect(error).toMatchObject({ code: 'IMAGE_DECODE', position: { file } });
    expect(error.message).toContain('claims 16383x16383');
  });

  // 8-bit RGB: 1,020 bytes of pixels per IDAT byte, near deflate's bound of 1,032.
  it('lets the most compressible real PNGs through (deflate level 9, one colour, 1 and 8 bits)', async () => {
    const grey = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const bilevel = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#fff' } })
      .toColourspace('b-w')
      .png({ compressionLevel: 9, palette: true, colours: 2 })
      .toBuffer();
    await put(dir, 'cat/grey.png', grey);
    await put(dir, 'cat/bilevel.png', bilevel);
    const rows = await collectAll(imageSource({ folder: dir }));
    expect(rows.map((row) => [value(row['image/width']), value(row['image/height'])])).toEqual([
      [2000, 2000],
      [2000, 2000],
    ]);
  });
});

describe('a sequential JPEG frame header that claims more blocks than the file can code', () => {
  it('is IMAGE_DECODE in keep mode (16000x16000 over 8x8 pixels, under maxPixels)', async () => {
    const jpeg = Buffer.from(await photo(8, 8, 1));
    const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(16000, frame + 5);
    jpeg.writeUInt16BE(16000, frame + 7);
    const file = await put(dir, 'cat/a.jpg', jpeg);
    const error = await failure({ folder: dir });
    expect(error).toMatchObject({ code: 'IMAGE_DECODE', position: { file } });
    expect(error.message).toContain('claims 16000x16000');
  });

  it('lets the most compressible real JPEG through (one grey, quality 1, optimised: 2 bits a block)', async () => {
    const grey = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#808080' } })
      .toColourspace('b-w')
      .jpeg({ quality: 1, optimiseCoding: true })
      .toBuffer();
    await put(dir, 'cat/grey.jpg', grey);
    const rows = await collectAll(imageSource({ folder: dir }));
    expect([value(rows[0]!['image/width']), value(rows[0]!['image/height'])]).toEqual([2000, 2000]);
  });
});

describe('VOC XML character references', () => {
  for (const reference of ['&#xZZ;', '&#1114112;', '&#0;', '&#xD800;', '&#99999999999;']) {
    it(`${reference} is IMAGE_ANNOTATION naming the XML file, skipped under onError: 'skip'`, async () => {
      const images = path.join(dir, 'JPEGImages');
      const voc = path.join(dir, 'Annotations');
      const object = { name: 'cat', xmin: 1, ymin: 1, xmax: 6, ymax: 6 };
      await put(images, 'a.jpg', await photo(8, 8, 1));
      await put(images, 'b.jpg', await photo(8, 8, 2));
      const bad = await put(voc, 'a.xml', vocXml('a.jpg', 8, 8, [object]).replace('cat', `cat${reference}`));
      await put(voc, 'b.xml', vocXml('b.jpg', 8, 8, [object]));
      const { rows, skipped } = await skipping({ voc, images });
      expect(rows.map((row) => value(row['image/filename']))).toEqual(['b.jpg']);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toMatchObject({ code: 'IMAGE_ANNOTATION', position: { file: bad } });
      expect(skipped[0]!.message).toContain(reference);
    });
  }
});

it('COCO: a category id given twice is a fatal IMAGE_ANNOTATION naming both names', async () => {
  await put(dir, 'a.jpg', await photo(8, 8, 1));
  const coco = await put(
    dir,
    'instances.json',
    JSON.stringify({
      images: [{ id: 1, file_name: 'a.jpg', width: 8, height: 8 }],
      annotations: [{ id: 1, image_id: 1, category_id: 1, bbox: [1, 1, 4, 4] }],
      categories: [
        { id: 1, name: 'cat' },
        { id: 1, name: 'dog' },
      ],
    }),
  );
  const error = await failure({ coco, onError: 'skip' });
  expect(error).toMatchObject({ code: 'IMAGE_ANNOTATION', fatal: true, position: { file: coco } });
  expect(error.message).toMatch(/category id 1 is given twice.*"cat".*"dog"/);
});

it("a libvips error is one line, the image's own (not the other lines of its shared error buffer)", async () => {
  // A JPEG start then zeros: libvips reports it with several lines.
  const broken = Buffer.concat([(await photo(16, 16, 1)).subarray(0, 20), Buffer.alloc(100_000)]);
  for (let index = 0; index < 4; index++) await put(dir, `cat/${index}.jpg`, broken);
  const { skipped } = await skipping({ folder: dir, resize: { width: 8, height: 8 }, concurrency: 4 });
  expect(skipped).toHaveLength(4);
  for (const error of skipped) {
    expect(error.code).toBe('IMAGE_DECODE');
    expect(error.message).not.toContain('\n');
    // sharp's own words first; libvips' shared buffer may have given this image's lines to another.
    expect(error.message).toMatch(/: Input buffer has corrupt header(: VipsJpeg: [^:]+)?$/);
  }
});

describe('an input with no image is an error, not an empty output', () => {
  it('a folder of .tif files: IMAGE_UNSUPPORTED naming the folder and the extensions found', async () => {
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    for (const name of ['cat/1.tif', 'cat/2.tif', 'dog/1.TIF', 'dog/notes.txt']) await put(dir, name, tiff);
    const error = await failure({ folder: dir });
    expect(error).toMatchObject({ code: 'IMAGE_UNSUPPORTED', fatal: true, position: { file: dir } });
    expect(error.message).toContain('.tif (3), .txt (1)');
  });

  it('an empty folder or one with images but no class folder: INPUT_NOT_FOUND; allowEmpty: none', async () => {
    await mkdir(path.join(dir, 'cat'));
    expect(await failure({ folder: dir })).toMatchObject({ code: 'INPUT_NOT_FOUND', fatal: true });
    expect(await collectAll(imageSource({ folder: dir, allowEmpty: true }))).toEqual([]);
    await put(dir, 'loose.png', await solid(4, 4, 3, 'png'));
    expect((await failure({ folder: dir })).message).toContain('put them in one folder per class');
  });

  it('a class folder of files but no image (an older output): IMAGE_UNSUPPORTED naming it', async () => {
    await put(dir, 'cat/a.png', await solid(4, 4, 3, 'png'));
    await mkdir(path.join(dir, 'empty')); // an empty class stays a class, as in Keras
    await put(dir, 'old-out/data-00000-of-00001.tfrecord', 'x');
    await put(dir, 'old-out/reader_spec.py', '');
    const error = await failure({ folder: dir });
    expect(error).toMatchObject({ code: 'IMAGE_UNSUPPORTED', position: { file: path.join(dir, 'old-out') } });
    expect(error.message).toContain('no image in class folder old-out');
    expect(error.message).toMatch(/\.tfrecord \(1\), \.py \(1\)/);
  });

  it('a list with a header only: INPUT_NOT_FOUND naming the list', async () => {
    const list = await put(dir, 'list.csv', 'path,label\n');
    expect(await failure({ list })).toMatchObject({ code: 'INPUT_NOT_FOUND', position: { file: list } });
  });
});

describe('exclude (the CLI passes its output directory)', () => {
  it('an output folder inside the image folder is not a class on a rerun', async () => {
    await put(dir, 'cat/a.png', await solid(4, 4, 3, 'png'));
    await put(dir, 'dog/b.png', await solid(4, 4, 3, 'png'));
    // What a first run left: shards and sidecars.
    await put(dir, 'out/data-00000-of-00001.tfrecord', 'x');
    await put(dir, 'out/labels.txt', '0:cat\n1:dog\n');
    await put(dir, 'out/reader_spec.py', '');
    const source = imageSource({ folder: dir, exclude: [path.join(dir, 'out')] });
    const rows = await collectAll(source);
    expect(rows.map((row) => value(row['image/class/text']))).toEqual(['cat', 'dog']);
    expect(reportOf(source)!.details!.labelMap).toEqual([
      { id: 0, name: 'cat' },
      { id: 1, name: 'dog' },
    ]);
    // A nested output (inside a class folder) is left out too; a path outside the root changes nothing.
    await put(dir, 'cat/out/data.tfrecord', 'x');
    const exclude = [path.join(dir, 'out'), path.join(dir, 'cat', 'out'), '/elsewhere'];
    expect(await collectAll(imageSource({ folder: dir, exclude }))).toHaveLength(2);
    // An output written into a class folder would drop that class: refused, never a silent loss.
    const error = await failure({ folder: dir, exclude: [path.join(dir, 'dog')] });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', fatal: true });
    expect(error.message).toContain(
      `${path.join(dir, 'dog')} is left out of the scan (as the output) but holds images`,
    );
  });
});
