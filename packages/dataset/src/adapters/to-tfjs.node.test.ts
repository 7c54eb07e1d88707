// toTfjs against the real @tensorflow/tfjs (its pure-JS CPU backend): one epoch of training a tiny
// model on a generated image dataset read from a TFRecord file, and int64 narrowing that fails loudly.
import { bytes, example, int64 } from '@tfpipe/core';
import type { TfpipeError } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import * as tf from '@tensorflow/tfjs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImages } from '../node/decode-image-node.js';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { fixedLen, varLen } from '../spec/feature-spec.js';
import { noise, pngOf } from '../testing/png.js';
import { temporaryFolder } from '../testing/write-records.js';
import { toTfjs } from './to-tfjs.js';

const SPEC = { image: fixedLen([], 'string'), label: fixedLen([], 'int64') } as const;

/** `count` 4 × 4 RGB PNGs: label 1 images are bright, label 0 dark. */
async function imageFile(folder: string, labels: readonly bigint[]): Promise<string> {
  const path = join(folder, 'train.tfrecord');
  const writer = await createTfrecordWriter({ path, fsync: false });
  await writer.write(
    labels.map((label, index) => {
      const pixels = noise(48, index).map((value) => (label === 1n ? 128 + (value >> 1) : value >> 1));
      return example({ image: bytes(pngOf(4, 4, 3, pixels)), label: int64(label) });
    }),
  );
  await writer.close();
  return path;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('toTfjs with @tensorflow/tfjs', () => {
  it('trains a tiny model for one epoch on decoded image batches', async () => {
    const path = await imageFile(await temporaryFolder(), [0n, 1n, 0n, 1n, 1n, 0n, 1n, 0n]);
    const batches = tfrecordDataset(path)
      .parse(SPEC, { batchSize: 4 })
      .map(decodeImages('image', { dtype: 'float32' }));
    const dataset = toTfjs(batches).map((batch) => {
      const { image, label } = batch as { image: tf.Tensor; label: tf.Tensor };
      return { xs: image, ys: label.toFloat().reshape([-1, 1]) };
    });

    const model = tf.sequential({
      layers: [
        tf.layers.flatten({ inputShape: [4, 4, 3] }),
        tf.layers.dense({ units: 1, activation: 'sigmoid' }),
      ],
    });
    model.compile({ optimizer: tf.train.sgd(0.5), loss: 'binaryCrossentropy' });
    const before = Array.from(model.getWeights()[0]!.dataSync());
    const history = await model.fitDataset(dataset, { epochs: 1 });
    const after = Array.from(model.getWeights()[0]!.dataSync());

    expect(history.history.loss).toHaveLength(1);
    expect(Number.isFinite(history.history.loss![0] as number)).toBe(true);
    expect(after).not.toEqual(before); // two steps of SGD moved the weights
  });

  it('gives each feature as a tensor: images, int64 narrowed to int32, sparse parts', async () => {
    const path = await imageFile(await temporaryFolder(), [0n, 1n, 1n]);
    const spec = { ...SPEC, ids: varLen('int64') } as const;
    const dataset = toTfjs(tfrecordDataset(path).parse(spec, { batchSize: 3 }).map(decodeImages('image')));
    const elements = await dataset.toArray();
    expect(elements).toHaveLength(1);
    const batch = elements[0]!;
    expect(Object.keys(batch)).toEqual(['image', 'label', 'ids.indices', 'ids.values', 'ids.dense_shape']);
    expect(batch.image!.dtype).toBe('int32');
    expect(batch.image!.shape).toEqual([3, 4, 4, 3]);
    expect(Array.from(batch.image!.dataSync()).slice(0, 48)).toEqual(
      Array.from(noise(48, 0), (value) => value >> 1),
    );
    expect(batch.label!.dtype).toBe('int32');
    expect(Array.from(batch.label!.dataSync())).toEqual([0, 1, 1]);
    expect(batch['ids.dense_shape']!.shape).toEqual([2]);
    tf.dispose(Object.values(batch));
  });

  it('fails on an int64 outside int32, naming the feature, file, record and offset', async () => {
    const path = await imageFile(await temporaryFolder(), [0n, 1n, 2n ** 31n, 1n]);
    const offsets: number[] = [];
    for await (const record of tfrecordDataset(path)) offsets.push(record.byteOffset);
    const dataset = toTfjs(tfrecordDataset(path).parse({ label: fixedLen([], 'int64') }, { batchSize: 2 }));
    const error = await dataset.toArray().then(
      () => expect.fail('expected INT64_RANGE'),
      (caught: unknown) => caught as TfpipeError,
    );
    expect(error.code).toBe('INT64_RANGE');
    expect(error.message).toContain(
      "Key: label, Index: 0.  Value 2147483648 does not fit TensorFlow.js's int32",
    );
    expect(error.position).toEqual({ file: path, recordIndex: 2, byteOffset: offsets[2], field: 'label' });
    expect(() => toTfjs({} as never)).toThrow('toTfjs takes a dataset');
  });
});
