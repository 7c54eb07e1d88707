// decodeImage in Node (sharp) against pixels the tests chose, written as PNGs byte by byte; and
// decodeImages as a step of a real TFRecord dataset on disk, with its errors' positions.
import { bytes, example, float, int64 } from '@tfpipe/core';
import type { TfpipeError } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixedLen, ragged } from '../spec/feature-spec.js';
import { crc32, noise, pngOf } from '../testing/png.js';
import { temporaryFolder } from '../testing/write-records.js';
import { decodeImage, decodeImages } from './decode-image-node.js';
import { tfrecordDataset } from './tfrecord-dataset-node.js';

async function failure(promise: Promise<unknown>): Promise<TfpipeError> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error as TfpipeError,
  );
}

/** The error that draining `dataset` ends with. */
async function drainFailure(dataset: AsyncIterable<unknown>): Promise<TfpipeError> {
  return failure(
    (async () => {
      for await (const _ of dataset);
    })(),
  );
}

/** Checks `error`'s code and that it names the image feature of record `recordIndex` of `file`. */
function expectImageError(
  error: TfpipeError,
  code: string,
  file: string,
  recordIndex: number,
  byteOffset: number | undefined,
): void {
  expect(error.code).toBe(code);
  expect(error.position).toMatchObject({ file, recordIndex, byteOffset, field: 'image/encoded' });
}

/** Writes one Example per image (`image/encoded`, `label` = its index) and returns the path. */
async function imageFile(folder: string, name: string, images: readonly Uint8Array[]): Promise<string> {
  const path = join(folder, name);
  const writer = await createTfrecordWriter({ path, fsync: false });
  await writer.write(
    images.map((image, index) => example({ 'image/encoded': bytes(image), label: int64(index) })),
  );
  await writer.close();
  return path;
}

const SPEC = { 'image/encoded': fixedLen([], 'string'), label: fixedLen([], 'int64') } as const;

describe('decodeImage (sharp)', () => {
  const rgba = noise(5 * 7 * 4, 7);
  const png = pngOf(7, 5, 4, rgba);

  it('decodes a PNG to exactly its pixels, HWC, with the asked channels', async () => {
    const four = await decodeImage(png, { channels: 4 });
    expect(four.shape).toEqual([5, 7, 4]);
    expect(four.dtype).toBe('uint8');
    expect(Array.from(four.data)).toEqual(Array.from(rgba));

    const three = await decodeImage(png); // channels: 3 by default, alpha dropped
    expect(three.shape).toEqual([5, 7, 3]);
    expect(Array.from(three.data)).toEqual(Array.from(rgba).filter((_, index) => index % 4 !== 3));

    const one = await decodeImage(png, { channels: 1 });
    expect(one.shape).toEqual([5, 7, 1]);
    const luma = Array.from({ length: 35 }, (_, pixel) =>
      Math.round(0.299 * rgba[pixel * 4]! + 0.587 * rgba[pixel * 4 + 1]! + 0.114 * rgba[pixel * 4 + 2]!),
    );
    expect(Array.from(one.data)).toEqual(luma);
  });

  it('expands grey to RGB and adds an opaque alpha', async () => {
    const grey = pngOf(2, 2, 1, Uint8Array.of(0, 100, 200, 255));
    expect(Array.from((await decodeImage(grey)).data)).toEqual([
      0, 0, 0, 100, 100, 100, 200, 200, 200, 255, 255, 255,
    ]);
    expect(Array.from((await decodeImage(grey, { channels: 1 })).data)).toEqual([0, 100, 200, 255]);
    expect(Array.from((await decodeImage(grey, { channels: 4 })).data)).toEqual([
      0, 0, 0, 255, 100, 100, 100, 255, 200, 200, 200, 255, 255, 255, 255, 255,
    ]);
  });

  it('float32 is each byte divided by 255', async () => {
    const image = await decodeImage(png, { channels: 4, dtype: 'float32' });
    expect(image.dtype).toBe('float32');
    expect(image.data).toBeInstanceOf(Float32Array);
    expect(Array.from(image.data)).toEqual(Array.from(rgba, (value) => Math.fround(value / 255)));
  });

  it('resizes with fill, cover and contain as sharp defines them', async () => {
    const grey = pngOf(2, 2, 1, Uint8Array.of(0, 100, 200, 255));
    const nearest = { kernel: 'nearest' } as const;
    const filled = await decodeImage(grey, { channels: 1, resize: { height: 4, width: 4, ...nearest } });
    expect(filled.shape).toEqual([4, 4, 1]);
    expect(Array.from(filled.data)).toEqual([
      0, 0, 100, 100, 0, 0, 100, 100, 200, 200, 255, 255, 200, 200, 255, 255,
    ]);
    const wide = pngOf(4, 2, 1, Uint8Array.of(10, 20, 30, 40, 50, 60, 70, 80));
    const contained = await decodeImage(wide, {
      channels: 1,
      resize: { height: 4, width: 4, fit: 'contain', ...nearest },
    });
    expect(Array.from(contained.data)).toEqual([0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 0, 0, 0, 0]);
    const covered = await decodeImage(wide, {
      channels: 1,
      resize: { height: 2, width: 2, fit: 'cover', ...nearest },
    });
    expect(Array.from(covered.data)).toEqual([20, 30, 60, 70]);
    // The default kernel is linear: a 2×1 black-white image stretched to 4×1 has values between.
    const ramp = await decodeImage(pngOf(2, 1, 1, Uint8Array.of(0, 255)), {
      channels: 1,
      resize: { height: 1, width: 8 },
    });
    const values = Array.from(ramp.data);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values.filter((value) => value > 0 && value < 255)).size).toBeGreaterThanOrEqual(2);
  });

  it('decodes a JPEG and stacks a batch into [batch, h, w, c]', async () => {
    const jpegs = await Promise.all(
      [10, 20, 30].map((width) =>
        sharp({ create: { width, height: 12, channels: 3, background: { r: 200, g: 40, b: 90 } } })
          .jpeg({ quality: 95 })
          .toBuffer(),
      ),
    );
    const batch = await decodeImage(jpegs, { resize: { height: 8, width: 8 } });
    expect(batch.shape).toEqual([3, 8, 8, 3]);
    expect(batch.data.length).toBe(3 * 8 * 8 * 3);
    for (let pixel = 0; pixel < 3 * 64; pixel++) {
      expect(Math.abs(batch.data[pixel * 3]! - 200)).toBeLessThanOrEqual(3);
      expect(Math.abs(batch.data[pixel * 3 + 1]! - 40)).toBeLessThanOrEqual(3);
      expect(Math.abs(batch.data[pixel * 3 + 2]! - 90)).toBeLessThanOrEqual(3);
    }
  });

  it('an empty batch has shape [0, h, w, c] (0 × 0 without a resize)', async () => {
    expect((await decodeImage([], { resize: { height: 4, width: 6 } })).shape).toEqual([0, 4, 6, 3]);
    expect((await decodeImage([], { channels: 1 })).shape).toEqual([0, 0, 0, 1]);
  });

  it('refuses a batch of different sizes without a resize, naming the image', async () => {
    const error = await failure(
      decodeImage(
        [
          pngOf(2, 2, 1, new Uint8Array(4)),
          pngOf(2, 2, 1, new Uint8Array(4)),
          pngOf(3, 2, 1, new Uint8Array(6)),
        ],
        {
          feature: 'image/encoded',
          origin: { file: 'train.tfrecord', firstRecordIndex: 40 },
        },
      ),
    );
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.position).toEqual({ file: 'train.tfrecord', recordIndex: 42, field: 'image/encoded' });
    expect(error.message).toContain('image 0 has shape [2, 2, 3] but image 2 has shape [2, 3, 3]');
  });

  it('bytes that are not an image, a truncated JPEG and a non-array fail as TfpipeErrors', async () => {
    const garbage = await failure(decodeImage(Uint8Array.of(1, 2, 3)));
    expect(garbage.code).toBe('IMAGE_UNSUPPORTED');
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const truncated = await failure(decodeImage([png, jpeg.subarray(0, jpeg.length >> 1)]));
    expect(truncated.code).toBe('IMAGE_DECODE');
    expect(truncated.position.recordIndex).toBe(1);
    const empty = await failure(decodeImage(new Uint8Array(0)));
    expect(['IMAGE_DECODE', 'IMAGE_UNSUPPORTED']).toContain(empty.code);
    expect((await failure(decodeImage('x' as never))).code).toBe('INVALID_OPTION');
    expect((await failure(decodeImage([png, 'x' as never]))).position.recordIndex).toBe(1);
  });

  it('refuses an image whose header claims more pixels than the limit, before decoding it', async () => {
    // A valid PNG header of 20000 × 20000 grey pixels (400 million, over sharp's 268 million) with one row of data.
    const claimed = pngOf(1, 1, 1, new Uint8Array(1));
    const view = new DataView(claimed.buffer, claimed.byteOffset);
    view.setUint32(16, 20_000); // IHDR width
    view.setUint32(20, 20_000); // IHDR height
    view.setUint32(29, crc32(claimed.subarray(12, 29))); // the IHDR chunk's CRC, over its type and data
    const error = await failure(
      decodeImage([claimed], { origin: { file: 'big.tfrecord', firstRecordIndex: 9 } }),
    );
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(error.position).toEqual({ file: 'big.tfrecord', recordIndex: 9 });
  });

  it('refuses bad options, naming the option', async () => {
    const cases: [object, string][] = [
      [{ channels: 2 }, 'channels must be 1, 3 or 4'],
      [{ dtype: 'int8' }, "dtype must be 'uint8' or 'float32'"],
      [{ resize: { height: 0, width: 4 } }, 'resize.height must be an integer from 1 to 16383'],
      [{ resize: { height: 4, width: 1e9 } }, 'resize.width must be an integer'],
      [{ resize: { height: 4, width: 4, fit: 'inside' } }, 'resize.fit must be one of fill, cover, contain'],
      [{ resize: { height: 4, width: 4, kernel: 'mitchell' } }, 'resize.kernel must be one of'],
      [{ resize: 224 }, 'resize must be an object'],
      [{ workers: 0 }, 'workers must be an integer from 1 to 256, got 0'],
      [{ workers: 1.5 }, 'workers must be an integer from 1 to 256'],
      [{ workers: 1e9 }, 'workers must be an integer from 1 to 256'],
      // sharp already decodes on its own threads: Web Workers are the browser entry's.
      [{ workers: 2 }, 'workers must be 1 here (got 2): sharp already decodes on its own threads'],
    ];
    for (const [options, message] of cases) {
      const error = await failure(decodeImage(png, options as never));
      expect(error.code).toBe('INVALID_OPTION');
      expect(error.message).toContain(message);
    }
    expect(() => decodeImages('image/encoded', { channels: 5 } as never)).toThrow(
      'channels must be 1, 3 or 4',
    );
    expect(() => decodeImages('image/encoded', { workers: 2 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
    expect((await decodeImage(png, { workers: 1 })).shape).toEqual([5, 7, 3]);
  });
});

describe('decodeImages as a dataset step', () => {
  it('decodes each parsed batch in place of the feature, keeping the other features', async () => {
    const folder = await temporaryFolder();
    const images = [3, 4, 5, 6, 7].map((width, index) => pngOf(width, 2, 3, noise(width * 2 * 3, index)));
    const path = await imageFile(folder, 'images.tfrecord', images);
    const dataset = tfrecordDataset(path)
      .parse(SPEC, { batchSize: 2 })
      .map(decodeImages('image/encoded', { resize: { height: 2, width: 3, kernel: 'nearest' } }));
    const batches = [];
    for await (const batch of dataset) batches.push(batch);
    expect(batches.map((batch) => batch['image/encoded'].shape)).toEqual([
      [2, 2, 3, 3],
      [2, 2, 3, 3],
      [1, 2, 3, 3],
    ]);
    expect(batches.map((batch) => Array.from(batch.label.data))).toEqual([[0n, 1n], [2n, 3n], [4n]]);
    // Image 0 is 3 × 2 already: its pixels come through unchanged.
    expect(Array.from(batches[0]!['image/encoded'].data.subarray(0, 18))).toEqual(Array.from(noise(18, 0)));
  });

  it('names the file, record and byte offset of an image that breaks the batch', async () => {
    const folder = await temporaryFolder();
    const images = [
      pngOf(2, 2, 1, new Uint8Array(4)),
      pngOf(2, 2, 1, new Uint8Array(4)),
      pngOf(2, 2, 1, new Uint8Array(4)),
    ];
    images.push(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 0)); // a JPEG that stops after its first marker
    images.push(pngOf(3, 3, 1, new Uint8Array(9)));
    const path = await imageFile(folder, 'bad.tfrecord', images);
    const offsets: number[] = [];
    for await (const record of tfrecordDataset(path)) offsets.push(record.byteOffset);

    const broken = await drainFailure(
      tfrecordDataset(path).parse(SPEC, { batchSize: 2 }).map(decodeImages('image/encoded')),
    );
    expectImageError(broken, 'IMAGE_DECODE', path, 3, offsets[3]);

    const mixed = await drainFailure(
      tfrecordDataset(path)
        .filter((record) => record.recordIndex !== 3)
        .parse(SPEC, { batchSize: 4 })
        .map(decodeImages('image/encoded')),
    );
    expectImageError(mixed, 'FEATURE_TYPE', path, 4, offsets[4]);
  });

  it('hands out the batches before a batch with an undecodable image, then IMAGE_DECODE (parallel 1 and 4)', async () => {
    const folder = await temporaryFolder();
    const images = Array.from({ length: 7 }, (_, index) => pngOf(2, 2, 1, new Uint8Array(4).fill(index)));
    images[5] = Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 0); // a JPEG that stops after its first marker
    const path = await imageFile(folder, 'third-batch.tfrecord', images);
    const offsets: number[] = [];
    for await (const record of tfrecordDataset(path)) offsets.push(record.byteOffset);
    for (const parallel of [1, 4]) {
      const batches = tfrecordDataset(path)
        .parse(SPEC, { batchSize: 2 })
        .map(decodeImages('image/encoded', { channels: 1 }), { parallel });
      const labels: bigint[][] = [];
      const pixels: number[][] = [];
      const error = await failure(
        (async () => {
          for await (const batch of batches) {
            labels.push(Array.from(batch.label.data));
            pixels.push(Array.from(batch['image/encoded'].data));
          }
        })(),
      );
      // Batch 2 (records 4 and 5) fails; with parallel 4, batch 3, decoded beside it, is not handed out.
      expect(labels).toEqual([
        [0n, 1n],
        [2n, 3n],
      ]);
      expect(pixels).toEqual([
        [0, 0, 0, 0, 1, 1, 1, 1],
        [2, 2, 2, 2, 3, 3, 3, 3],
      ]);
      expectImageError(error, 'IMAGE_DECODE', path, 5, offsets[5]);
    }
  });

  it('refuses a feature that is not one encoded image per record', async () => {
    const folder = await temporaryFolder();
    const path = await imageFile(folder, 'one.tfrecord', [pngOf(1, 1, 1, new Uint8Array(1))]);
    const step = decodeImages('label');
    const error = await drainFailure(
      tfrecordDataset(path)
        .parse(SPEC)
        .map(step as never),
    );
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain("feature label must be parsed as fixedLen([], 'string')");
    const raggedSpec = { 'image/encoded': ragged('string') };
    const raggedError = await drainFailure(
      tfrecordDataset(path)
        .parse(raggedSpec)
        .map(decodeImages('image/encoded') as never),
    );
    expect(raggedError.code).toBe('INVALID_OPTION');
  });
});

describe('a detection dataset', () => {
  it('gives the boxes as ragged tensors beside the decoded images (the README spec)', async () => {
    const folder = await temporaryFolder();
    const path = join(folder, 'detection.tfrecord');
    const writer = await createTfrecordWriter({ path, fsync: false });
    const boxes = [
      [],
      [[0.1, 0.2, 0.5, 0.6]],
      [
        [0, 0, 1, 1],
        [0.25, 0.5, 0.75, 1],
      ],
    ];
    await writer.write(
      boxes.map((list, index) =>
        example({
          'image/encoded': bytes(pngOf(4 + index, 3, 3, noise((4 + index) * 9, index))),
          'image/object/bbox/ymin': float(...list.map((box) => box[0]!)),
          'image/object/bbox/xmin': float(...list.map((box) => box[1]!)),
          'image/object/bbox/ymax': float(...list.map((box) => box[2]!)),
          'image/object/bbox/xmax': float(...list.map((box) => box[3]!)),
          'image/object/class/label': int64(...list.map((_, at) => at + 1)),
        }),
      ),
    );
    await writer.close();
    const spec = {
      'image/encoded': fixedLen([], 'string'),
      'image/object/bbox/ymin': ragged('float32'),
      'image/object/bbox/xmin': ragged('float32'),
      'image/object/bbox/ymax': ragged('float32'),
      'image/object/bbox/xmax': ragged('float32'),
      'image/object/class/label': ragged('int64'),
    };
    const dataset = tfrecordDataset(path)
      .parse(spec, { batchSize: 3 })
      .map(decodeImages('image/encoded', { resize: { height: 8, width: 8 } }));
    for await (const batch of dataset) {
      expect(batch['image/encoded'].shape).toEqual([3, 8, 8, 3]);
      const ymin = batch['image/object/bbox/ymin'];
      expect(Array.from(ymin.rowSplits[0]!)).toEqual([0, 0, 1, 3]);
      expect(Array.from(ymin.data)).toEqual([0.1, 0, 0.25].map(Math.fround));
      expect(Array.from(batch['image/object/bbox/xmax'].data)).toEqual([0.6, 1, 1].map(Math.fround));
      expect(Array.from(batch['image/object/class/label'].data)).toEqual([1n, 1n, 2n]);
    }
  });
});
