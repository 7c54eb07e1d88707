import { symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { reportOf, TfpipeError } from '@tfpipe/core';
import type { TfpipeErrorCode } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { vocXml } from './__fixtures__/annotations.js';
import { collectAll, photo, put, solid, eachTemporaryDirectory, value } from './__fixtures__/make-images.js';
import { imageExampleSpec } from './image-examples.js';
import { imageSource } from './image-source.js';
import type { ImageSourceOptions } from './image-source-options.js';

let dir: string;
let outside: string;
eachTemporaryDirectory((made) => (dir = made));
eachTemporaryDirectory((made) => (outside = made));

async function failure(options: ImageSourceOptions): Promise<TfpipeError> {
  try {
    await collectAll(imageSource(options));
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the source to fail');
}

/** A PNG whose header claims `width` x `height` (with a correct IHDR CRC), over tiny pixel data. */
async function pixelBomb(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solid(1, 1, 3, 'png'));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('bad images, each a TfpipeError with the path', () => {
  const cases: [string, () => Promise<Uint8Array | string>, TfpipeErrorCode, RegExp][] = [
    ['a zero-byte file', () => Promise.resolve(new Uint8Array()), 'IMAGE_DECODE', /0 bytes/],
    [
      'a text file named .jpg',
      () => Promise.resolve('just some text, not a picture'),
      'IMAGE_UNSUPPORTED',
      /not JPEG, PNG, WebP or GIF/,
    ],
    [
      'a BMP (recognised, unsupported)',
      () => Promise.resolve(Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])),
      'IMAGE_UNSUPPORTED',
      /bmp/,
    ],
    [
      'a truncated JPEG',
      () => photo(64, 48, 1).then((data) => data.subarray(0, 900)),
      'IMAGE_DECODE',
      /truncated/,
    ],
    [
      'a JPEG with a broken header',
      () =>
        Promise.resolve(
          Buffer.concat([
            Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 3]),
            Buffer.alloc(40),
            Buffer.from([0xff, 0xd9]),
          ]),
        ),
      'IMAGE_DECODE',
      /corrupt jpeg/,
    ],
    [
      'a pixel bomb (PNG header claiming 60000 x 60000)',
      () => pixelBomb(60_000, 60_000),
      'IMAGE_TOO_LARGE',
      /60000x60000/,
    ],
  ];
  for (const [what, make, code, message] of cases) {
    it(`${what} → ${code}`, async () => {
      const file = await put(dir, 'cat/bad.jpg', await make());
      const error = await failure({ folder: dir });
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(error.position).toMatchObject({ file, recordIndex: 0 });
      expect(error.fatal).toBe(false);
    });
  }

  it('a JPEG with corrupt scan data passes the structure check and fails verify: decode and any processing', async () => {
    const good = Buffer.from(await photo(64, 48, 2));
    const corrupt = Buffer.from(good);
    // Overwrite the middle of the entropy-coded data with markers no decoder accepts there.
    for (let index = Math.floor(good.length / 2); index < good.length - 50; index += 2) {
      corrupt[index] = 0xff;
      corrupt[index + 1] = 0xd0;
    }
    await put(dir, 'cat/x.jpg', corrupt);
    expect(await collectAll(imageSource({ folder: dir }))).toHaveLength(1);
    expect((await failure({ folder: dir, verify: 'decode' })).code).toBe('IMAGE_DECODE');
    expect((await failure({ folder: dir, resize: { width: 8, height: 8 } })).code).toBe('IMAGE_DECODE');
  });

  it('maxPixels lowers the pixel limit', async () => {
    await put(dir, 'cat/a.png', await solid(20, 20, 3, 'png'));
    const error = await failure({ folder: dir, maxPixels: 399 });
    expect(error.code).toBe('IMAGE_TOO_LARGE');
  });

  it('a symlink leaving the root → PATH_ESCAPE', async () => {
    await put(outside, 'secret.png', await solid(2, 2, 3, 'png'));
    await put(dir, 'cat/ok.png', await solid(2, 2, 3, 'png'));
    await symlink(path.join(outside, 'secret.png'), path.join(dir, 'cat/link.png'));
    const error = await failure({ folder: dir });
    expect(error.code).toBe('PATH_ESCAPE');
    expect(error.position.file).toBe(path.join(dir, 'cat/link.png'));
  });

  it('a class folder that is a symlink out of the root → PATH_ESCAPE for its regular files too', async () => {
    await put(outside, 'secret.png', await solid(2, 2, 3, 'png'));
    await put(dir, 'cat/ok.png', await solid(2, 2, 3, 'png'));
    await symlink(outside, path.join(dir, 'dog'));
    const error = await failure({ folder: dir });
    expect(error.code).toBe('PATH_ESCAPE');
    expect(error.position.file).toBe(path.join(dir, 'dog/secret.png'));
  });

  it('a list path with .. leaving the root → PATH_ESCAPE, a missing file → INPUT_NOT_FOUND with its line', async () => {
    await put(outside, 'x.png', await solid(2, 2, 3, 'png'));
    await put(dir, 'list.csv', `path,label\n../${path.basename(outside)}/x.png,a\n`);
    expect((await failure({ list: path.join(dir, 'list.csv') })).code).toBe('PATH_ESCAPE');
    await put(dir, 'list.csv', 'path,label\nmissing.png,a\n');
    const missing = await failure({ list: path.join(dir, 'list.csv') });
    expect(missing.code).toBe('INPUT_NOT_FOUND');
    expect(missing.position).toMatchObject({ file: path.join(dir, 'missing.png'), line: 2, recordIndex: 0 });
  });

  it('a missing image after a quoted multi-line cell and blank lines is reported at its own list line', async () => {
    await put(dir, 'a.png', await solid(2, 2, 3, 'png'));
    await put(dir, 'list.csv', 'path,note\r\na.png,"two\nlines"\r\n\r\nmissing.png,x\r\n');
    const missing = await failure({ list: path.join(dir, 'list.csv') });
    expect(missing.position).toMatchObject({ file: path.join(dir, 'missing.png'), line: 5, recordIndex: 1 });
  });

  it.each([
    ['a row with a cell too many', 'path,label\na.png,cat\nb.png,dog,extra\n', 'CSV_ROW_LENGTH', 3],
    ['a quote never closed', 'path,label\na.png,cat\n"b.png,dog\n', 'CSV_PARSE', 3],
    ['text after a closing quote', 'path,label\n"a.png"x,cat\n', 'CSV_PARSE', 2],
    ['no path column', 'file,label\na.png,cat\n', 'CSV_HEADER', 1],
    ['an empty file', '', 'CSV_HEADER', 1],
  ])('a list with %s is a fatal %s at its line', async (_, text, code, line) => {
    await put(dir, 'a.png', await solid(2, 2, 3, 'png'));
    await put(dir, 'list.csv', text);
    const error = await failure({ list: path.join(dir, 'list.csv'), onError: 'skip' });
    expect(error.code).toBe(code);
    expect(error.fatal).toBe(true);
    expect(error.position).toMatchObject({ file: path.join(dir, 'list.csv'), line });
  });

  it('reads a list whose file name has glob characters as that file', async () => {
    await put(dir, 'a.png', await solid(2, 2, 3, 'png'));
    await put(dir, 'train[1].csv', 'path\na.png\n');
    await put(dir, 'train1.csv', 'path\nmissing.png\n');
    const rows = await collectAll(imageSource({ list: path.join(dir, 'train[1].csv') }));
    expect(rows.map((row) => value(row['image/filename']))).toEqual(['a.png']);
    expect((await failure({ list: path.join(dir, 'nothing.csv') })).code).toBe('INPUT_NOT_FOUND');
  });
});

describe('bad annotations', () => {
  async function vocSet(objects: Parameters<typeof vocXml>[3]): Promise<string> {
    await put(dir, 'JPEGImages/a.png', await solid(100, 50, 3, 'png'));
    await put(dir, 'Annotations/a.xml', vocXml('a.png', 100, 50, objects));
    return path.join(dir, 'Annotations');
  }

  it('a box wholly outside the image → IMAGE_BOX naming the object; a box partly outside is clamped', async () => {
    const voc = await vocSet([
      { name: 'a', xmin: -10, ymin: 10, xmax: 50, ymax: 60 },
      { name: 'b', xmin: 120, ymin: 10, xmax: 150, ymax: 20 },
    ]);
    const error = await failure({ voc });
    expect(error.code).toBe('IMAGE_BOX');
    expect(error.position).toMatchObject({
      annotation: 'object 1',
      file: path.join(dir, 'JPEGImages/a.png'),
    });
    const [row] = await collectAll(imageSource({ voc, invalidBoxes: 'drop' }));
    const record = row as Record<string, { value: number[] }>;
    expect([...record['image/object/bbox/xmin']!.value]).toEqual([0]);
    expect([...record['image/object/bbox/ymax']!.value]).toEqual([1]);
  });

  it('a degenerate box (zero area) → IMAGE_BOX, or dropped and counted with invalidBoxes: drop', async () => {
    const voc = await vocSet([
      { name: 'a', xmin: 10, ymin: 10, xmax: 10, ymax: 30 },
      { name: 'a', xmin: 10, ymin: 10, xmax: 20, ymax: 30 },
    ]);
    expect((await failure({ voc })).code).toBe('IMAGE_BOX');
    const source = imageSource({ voc, invalidBoxes: 'drop' });
    const [row] = await collectAll(source);
    expect((row as Record<string, { value: number[] }>)['image/object/bbox/xmin']!.value).toHaveLength(1);
    expect(reportOf(source)!.details?.['droppedObjects']).toBe(1);
  });

  it('malformed XML → IMAGE_ANNOTATION with the line', async () => {
    await put(dir, 'JPEGImages/a.png', await solid(4, 4, 3, 'png'));
    await put(
      dir,
      'Annotations/a.xml',
      '<annotation>\n<filename>a.png</filename>\n<object><name>x</object>\n</annotation>',
    );
    const error = await failure({ voc: path.join(dir, 'Annotations') });
    expect(error.code).toBe('IMAGE_ANNOTATION');
    expect(error.position).toMatchObject({ file: path.join(dir, 'Annotations/a.xml'), line: 3 });
  });

  it('a COCO image whose declared size disagrees with the file → IMAGE_ANNOTATION with the image id', async () => {
    await put(dir, 'a.png', await solid(10, 10, 3, 'png'));
    const coco = {
      images: [{ id: 42, file_name: 'a.png', width: 20, height: 10 }],
      annotations: [{ id: 1, image_id: 42, category_id: 1, bbox: [1, 1, 2, 2], iscrowd: 0, area: 4 }],
      categories: [{ id: 1, name: 'x' }],
    };
    await put(dir, 'instances.json', JSON.stringify(coco));
    const error = await failure({ coco: path.join(dir, 'instances.json') });
    expect(error.code).toBe('IMAGE_ANNOTATION');
    expect(error.position.annotation).toBe('image 42');
  });
});

describe('the error policy', () => {
  it("onError: 'skip' counts and lists every bad image and writes the rest, in order", async () => {
    await put(dir, 'a/1.png', await solid(3, 3, 3, 'png'));
    await put(dir, 'a/2.jpg', '');
    await put(dir, 'a/3.png', await solid(4, 3, 3, 'png'));
    await put(dir, 'a/4.jpg', 'text');
    await put(dir, 'b/5.png', await solid(5, 3, 3, 'png'));
    const skipped: string[] = [];
    const source = imageSource({
      folder: dir,
      onError: 'skip',
      onSkip: (error) => skipped.push(error.code),
      concurrency: 3,
    });
    const rows = await collectAll(source);
    expect(rows.map((row) => value((row as Record<string, unknown>)['image/filename']))).toEqual([
      'a/1.png',
      'a/3.png',
      'b/5.png',
    ]);
    expect(skipped).toEqual(['IMAGE_DECODE', 'IMAGE_UNSUPPORTED']);
    const report = reportOf(source)!;
    expect(report.skipped).toBe(2);
    expect(report.skippedErrors!.map((error) => error.position.file)).toEqual([
      path.join(dir, 'a/2.jpg'),
      path.join(dir, 'a/4.jpg'),
    ]);
    expect(report.records).toBe(3);
  });

  it('an unreadable root is fatal even under skip', async () => {
    const error = await failure({ folder: path.join(dir, 'nope'), onError: 'skip' });
    expect(error.code).toBe('INPUT_NOT_FOUND');
    expect(error.fatal).toBe(true);
    const coco = await failure({ coco: path.join(dir, 'nope.json'), onError: 'skip' });
    expect(coco.fatal).toBe(true);
  });

  it('checks options when called, naming the option', () => {
    expect(() => imageSource({})).toThrow(
      /imageSource options: expected exactly one of folder, list, coco, voc \(got none\)/,
    );
    expect(() => imageSource({ folder: dir, resize: { width: 0, height: 5 } })).toThrow(
      /option resize.width: expected a whole number from 1 to 16383, got 0/,
    );
    expect(() => imageSource({ folder: dir, quality: 101 })).toThrow(/quality/);
    expect(() => imageSource({ folder: dir, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => imageSource({ folder: dir, keys: { encoded: 'image/format' } })).toThrow(
      /option keys: expected each feature name once, two roles name "image\/format"/,
    );
  });

  it('checks imageExampleSpec keys with the same definitions as imageSource', () => {
    expect(() => imageExampleSpec({ keys: { encoded: 'image/format' } })).toThrow(
      /^imageExampleSpec option keys: expected each feature name once, two roles name "image\/format"/,
    );
    expect(() => imageExampleSpec({ keys: { nope: 'x' } as never })).toThrow(
      /^imageExampleSpec option keys: expected an object of role → feature name or false \(roles: encoded,/,
    );
    expect(() => imageExampleSpec({ keys: { label: '' } })).toThrow(
      /^imageExampleSpec option keys.label: expected a non-empty feature name or false/,
    );
    expect(() => imageSource({ folder: dir, keys: { label: '' } })).toThrow(
      /^imageSource option keys.label: expected a non-empty feature name or false/,
    );
    const spec = imageExampleSpec({ keys: { label: 'y', sha256: false } });
    expect(spec.y).toEqual({ kind: 'int64', missing: 'omit' });
    expect(Object.keys(spec)).not.toContain('image/key/sha256');
  });
});
