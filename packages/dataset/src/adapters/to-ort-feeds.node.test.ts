// toOrtFeeds against the real onnxruntime-node: a model written in the test (see testing/onnx-model.ts)
// runs on feeds made from a TFRecord file parsed and decoded by the dataset.
import { bytes, example, float, int64 } from '@tfpipe/core';
import type { TfpipeError } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { decodeImages } from '../node/decode-image-node.js';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { fixedLen, ragged, varLen } from '../spec/feature-spec.js';
import { ONNX_TYPE, onnxModel } from '../testing/onnx-model.js';
import { noise, pngOf } from '../testing/png.js';
import { temporaryFolder } from '../testing/write-records.js';
import { toOrtFeeds } from './to-ort-feeds.js';

const BIG = 2n ** 60n + 1n; // not exact as a double
const SPEC = {
  image: fixedLen([], 'string'),
  label: fixedLen([], 'int64'),
  name: fixedLen([], 'string'),
  tags: varLen('int64'),
  boxes: ragged('float32'),
} as const;

async function writeFile(folder: string): Promise<string> {
  const path = join(folder, 'ort.tfrecord');
  const writer = await createTfrecordWriter({ path, fsync: false });
  await writer.write(
    [0, 1, 2].map((index) =>
      example({
        image: bytes(pngOf(2, 2, 3, noise(12, index))),
        label: int64(BIG * BigInt(index + 1)),
        name: bytes(`näme ${index}`),
        tags: int64(...Array.from({ length: index }, (_, at) => BigInt(at + 10))),
        boxes: float(...Array.from({ length: 2 * index }, (_, at) => at / 4)),
      }),
    ),
  );
  await writer.close();
  return path;
}

const model = onnxModel(
  [
    { op: 'Add', inputs: ['label', 'label'], outputs: ['label_twice'] },
    { op: 'Cast', inputs: ['image'], outputs: ['image_float'], ints: { to: ONNX_TYPE.float } },
    { op: 'Identity', inputs: ['name'], outputs: ['name_out'] },
    { op: 'Identity', inputs: ['tags.indices'], outputs: ['tags_indices'] },
    { op: 'Add', inputs: ['boxes.values', 'boxes.values'], outputs: ['boxes_twice'] },
    { op: 'Identity', inputs: ['boxes.row_splits_0'], outputs: ['boxes_splits'] },
  ],
  [
    { name: 'label', type: ONNX_TYPE.int64, dims: ['batch'] },
    { name: 'image', type: ONNX_TYPE.uint8, dims: ['batch', 2, 2, 3] },
    { name: 'name', type: ONNX_TYPE.string, dims: ['batch'] },
    { name: 'tags.indices', type: ONNX_TYPE.int64, dims: ['count', 2] },
    { name: 'boxes.values', type: ONNX_TYPE.float, dims: ['values'] },
    { name: 'boxes.row_splits_0', type: ONNX_TYPE.int32, dims: ['splits'] },
  ],
  [
    { name: 'label_twice', type: ONNX_TYPE.int64, dims: ['batch'] },
    { name: 'image_float', type: ONNX_TYPE.float, dims: ['batch', 2, 2, 3] },
    { name: 'name_out', type: ONNX_TYPE.string, dims: ['batch'] },
    { name: 'tags_indices', type: ONNX_TYPE.int64, dims: ['count', 2] },
    { name: 'boxes_twice', type: ONNX_TYPE.float, dims: ['values'] },
    { name: 'boxes_splits', type: ONNX_TYPE.int32, dims: ['splits'] },
  ],
);

describe('toOrtFeeds with onnxruntime-node', () => {
  it('runs a model on a parsed, decoded batch: int64 exact, uint8 images, strings, sparse and ragged parts', async () => {
    const path = await writeFile(await temporaryFolder());
    const session = await ort.InferenceSession.create(model);
    const dataset = tfrecordDataset(path).parse(SPEC, { batchSize: 3 }).map(decodeImages('image'));
    let batches = 0;
    for await (const batch of dataset) {
      batches++;
      const feeds = toOrtFeeds(batch, { names: session.inputNames });
      expect(Object.keys(feeds)).toEqual([...session.inputNames]);
      expect(feeds.label!.data).toBe(batch.label.data); // shared, not copied
      const out = await session.run(feeds);
      expect(Array.from(out.label_twice!.data as BigInt64Array)).toEqual([2n * BIG, 4n * BIG, 6n * BIG]);
      expect(out.image_float!.dims).toEqual([3, 2, 2, 3]);
      const pixels = [0, 1, 2].flatMap((index) => Array.from(noise(12, index)));
      expect(Array.from(out.image_float!.data as Float32Array)).toEqual(pixels);
      expect(out.name_out!.data).toEqual(['näme 0', 'näme 1', 'näme 2']);
      expect(Array.from(out.tags_indices!.data as BigInt64Array)).toEqual([1n, 0n, 2n, 0n, 2n, 1n]);
      expect(Array.from(out.boxes_twice!.data as Float32Array)).toEqual([0, 0.5, 0, 0.5, 1, 1.5]);
      expect(Array.from(out.boxes_splits!.data as Int32Array)).toEqual([0, 0, 2, 6]);
    }
    expect(batches).toBe(1);
    await session.release();
  });

  it('gives every component by default: sparse indices, values and dense shape', async () => {
    const path = await writeFile(await temporaryFolder());
    for await (const batch of tfrecordDataset(path).parse(
      { tags: varLen('int64'), boxes: ragged('float32') },
      { batchSize: 3 },
    )) {
      const feeds = toOrtFeeds(batch);
      expect(Object.keys(feeds)).toEqual([
        'tags.indices',
        'tags.values',
        'tags.dense_shape',
        'boxes.values',
        'boxes.row_splits_0',
      ]);
      expect(feeds['tags.indices']!.dims).toEqual([3, 2]);
      expect(feeds['tags.values']!.type).toBe('int64');
      expect(Array.from(feeds['tags.dense_shape']!.data as BigInt64Array)).toEqual([3n, 2n]);
      expect(feeds['boxes.row_splits_0']!.type).toBe('int32');
    }
  });

  it('names the record of a byte string that is not UTF-8, and an unknown feed name', async () => {
    const folder = await temporaryFolder();
    const path = join(folder, 'latin1.tfrecord');
    const writer = await createTfrecordWriter({ path, fsync: false });
    await writer.write([example({ name: bytes('ok') }), example({ name: bytes(Uint8Array.of(0xe9)) })]);
    await writer.close();
    const offsets: number[] = [];
    for await (const record of tfrecordDataset(path)) offsets.push(record.byteOffset);
    for await (const batch of tfrecordDataset(path).parse(
      { name: fixedLen([], 'string') },
      { batchSize: 2 },
    )) {
      let error: TfpipeError | undefined;
      try {
        toOrtFeeds(batch);
      } catch (caught) {
        error = caught as TfpipeError;
      }
      expect(error?.code).toBe('FEATURE_TYPE');
      expect(error?.position).toEqual({ file: path, recordIndex: 1, byteOffset: offsets[1], field: 'name' });
      expect(() => toOrtFeeds(batch, { names: ['nome'] })).toThrow(
        '"nome" is not in this batch (it has name)',
      );
    }
  });

  it('keeps a feature named __proto__ as a feed', () => {
    const batch = {
      ['__proto__']: { kind: 'dense', dtype: 'int32', data: Int32Array.of(7), shape: [1] },
    } as const;
    const feeds = toOrtFeeds(batch);
    expect(Object.keys(feeds)).toEqual(['__proto__']);
    expect(Array.from(feeds['__proto__']!.data as Int32Array)).toEqual([7]);
  });
});
