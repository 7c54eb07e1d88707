// Third-party TFRecord files (TFX, the raccoon detection set) parsed with specs, batch by batch,
// and every value checked against core's decodeExample of the same record.
import { decodeExample, TfpipeError } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import { tfrecordSource } from '@tfpipe/sink-tfrecord';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { describe, expect, it } from 'vitest';
import { tfrecordCorpusFile } from '../../../../test-support/corpus.js';
import { fixedLen, ragged, varLen } from '../spec/feature-spec.js';
import type { ExampleParseSpec, FeatureSpec } from '../spec/feature-spec.js';
import type { Tensor } from '../tensor.js';
import { parseExample } from './parse-example.js';
import { indexRows, plain, raggedList } from './tensor-test-helpers.js';

async function records(name: string): Promise<TfRecord[]> {
  const all: TfRecord[] = [];
  for await (const record of tfrecordSource({ paths: [tfrecordCorpusFile(name)] })) all.push(record);
  return all;
}

const decoder = new TextDecoder();
const plainFeature = (feature: Feature | undefined): (number | string)[] =>
  feature === undefined
    ? []
    : Array.from(feature.value as ArrayLike<number | bigint | Uint8Array>, (value) =>
        typeof value === 'bigint'
          ? Number(value)
          : value instanceof Uint8Array
            ? decoder.decode(value)
            : value,
      );

/** What TensorFlow gives one Example's feature: its values, or the default when missing or kindless. */
function expectedRow(spec: FeatureSpec, feature: Feature | undefined): (number | string)[] {
  const missing = feature === undefined || feature.kind === 'none';
  if (spec.type === 'fixedLen' && missing) {
    return Array.from(spec.default as ArrayLike<number | bigint | Uint8Array>, (value) =>
      typeof value === 'bigint' ? Number(value) : value instanceof Uint8Array ? decoder.decode(value) : value,
    );
  }
  return plainFeature(feature);
}

function checkBatch(spec: ExampleParseSpec, batch: Record<string, Tensor>, chunk: readonly TfRecord[]): void {
  const examples = chunk.map((record) => decodeExample(record.data).features);
  for (const [name, featureSpec] of Object.entries(spec)) {
    const tensor = batch[name]!;
    const rows = examples.map((features) => expectedRow(featureSpec, features[name]));
    expect(plain(tensor), name).toEqual(rows.flat());
    if (tensor.kind === 'ragged') expect(raggedList(tensor), name).toEqual(rows);
    if (tensor.kind === 'sparse') {
      expect(indexRows(tensor)).toEqual(
        rows.flatMap((row, example) => row.map((_, position) => [example, position])),
      );
    }
  }
}

async function parseAll(name: string, spec: ExampleParseSpec, batchSize: number): Promise<number> {
  const all = await records(name);
  const parser = parseExample(spec);
  for (let start = 0; start < all.length; start += batchSize) {
    const chunk = all.slice(start, start + batchSize);
    checkBatch(spec, parser.parse(chunk), chunk);
  }
  return all.length;
}

describe('parseExample on third-party TFRecord files', () => {
  it('TFX penguin (gzip): floats and an int64 label narrowed to int32', async () => {
    const spec = {
      culmen_length_mm: fixedLen([], 'float32'),
      culmen_depth_mm: fixedLen([], 'float32'),
      flipper_length_mm: fixedLen([], 'float32'),
      body_mass_g: fixedLen([], 'float32'),
      species: fixedLen([], 'int32'),
    };
    expect(await parseAll('tfx_penguin_train.tfrecord.gz', spec, 64)).toBe(234);
  });

  it('TFX MNIST: 784 floats per Example', async () => {
    const spec = { image_floats: fixedLen([28, 28], 'float32'), image_class: fixedLen([], 'int64') };
    expect(await parseAll('tfx_mnist_floats.tfrecord', spec, 100)).toBe(1000);
    const [first] = await records('tfx_mnist_floats.tfrecord');
    const batch = parseExample(spec).parse([first!]);
    expect(batch.image_floats.shape).toEqual([1, 28, 28]);
    expect(batch.image_floats.data).toBeInstanceOf(Float32Array);
  });

  it('TFX taxi (gzip): kindless cells take the defaults', async () => {
    const spec = {
      company: fixedLen([], 'string', { default: '' }),
      dropoff_census_tract: fixedLen([], 'int64', { default: -1 }),
      dropoff_latitude: fixedLen([], 'float32', { default: 0 }),
      pickup_census_tract: varLen('int64'),
      fare: fixedLen([], 'float32'),
      payment_type: fixedLen([], 'string'),
      trip_start_timestamp: fixedLen([], 'number'),
    };
    expect(await parseAll('tfx_taxi_csvgen_eval_00000.tfrecord.gz', spec, 100)).toBe(424);
  });

  it('raccoon detection: JPEG bytes, sizes and boxes as ragged tensors', async () => {
    const spec = {
      'image/encoded': fixedLen([], 'string'),
      'image/height': fixedLen([], 'int32'),
      'image/width': fixedLen([], 'int32'),
      'image/object/bbox/xmin': ragged('float32'),
      'image/object/bbox/ymax': ragged('float32'),
      'image/object/class/text': varLen('string'),
      'image/object/class/label': ragged('int64'),
    };
    expect(await parseAll('raccoon_test_jpeg.record', spec, 32)).toBe(40);
    const all = await records('raccoon_test_jpeg.record');
    const batch = parseExample({
      'image/encoded': fixedLen([], 'string'),
      boxes: ragged('float32', { valueKey: 'image/object/bbox/ymin' }),
    }).parse(all.slice(0, 32));
    expect(Array.from(batch['image/encoded'].data[0]!.subarray(0, 2))).toEqual([0xff, 0xd8]);
    expect(raggedList(batch.boxes)).toEqual(
      all
        .slice(0, 32)
        .map((record) => plainFeature(decodeExample(record.data).features['image/object/bbox/ymin'])),
    );
  });

  it('names the file, record and frame offset when the spec does not fit the data', async () => {
    const all = await records('tfx_penguin_train.tfrecord.gz');
    let caught: unknown;
    try {
      parseExample({ species: fixedLen([], 'float32') }).parse(all.slice(3, 5));
    } catch (error) {
      caught = error;
    }
    expect(TfpipeError.is(caught)).toBe(true);
    const error = caught as TfpipeError;
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.position).toMatchObject({
      recordIndex: 3,
      byteOffset: all[3]!.byteOffset,
      field: 'species',
    });
    expect(error.position.file).toMatch(/tfx_penguin_train\.tfrecord\.gz$/);
  });
});
