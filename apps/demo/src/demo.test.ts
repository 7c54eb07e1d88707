import { readExamples } from '@tfpipe/sink-tfrecord';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { split } from './csv-pipeline.js';
import { runDemo, type DemoResult } from './run-demo.js';
import { SAMPLE } from './sample-data.js';

let directory: string;
let result: DemoResult;
const printed: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'tfpipe-demo-'));
  result = await runDemo({ directory, log: (text) => printed.push(text) });
});
afterAll(() => rm(directory, { recursive: true, force: true }));

test('all three pipelines pass their own checks and print a report each', () => {
  expect(result.failures).toEqual([]);
  const text = printed.join('\n');
  expect(text).toContain('All three pipelines verified');
  expect(text.match(/every CRC verified/g)).toHaveLength(3);
  expect(text).toContain('tf.io.parse_single_example');
  expect(text).toContain('"readings": tf.io.VarLenFeature(tf.float32)');
  expect(result.elapsedMs).toBeLessThan(60_000);
});

const shardsOf = (prefix: string): string[] =>
  result.csv.outputs[0]!.summary.shards.map((shard) => shard.path).filter((file) =>
    path.basename(file).startsWith(`${prefix}-`),
  );

test('the CSV split is the hash split of the id, and every row lands in exactly one split', async () => {
  expect(result.csv.outputs.map((output) => output.label)).toEqual(['train', 'validation']);
  const ids = { train: [] as bigint[], validation: [] as bigint[] };
  for (const label of ['train', 'validation'] as const) {
    const files = shardsOf(label);
    expect(files).toHaveLength(2);
    for await (const record of readExamples(files)) {
      const id = record.features.id!.value[0] as bigint;
      expect(split.assign({ id: id.toString() }, 0)).toBe(label);
      ids[label].push(id);
    }
    expect(result.csv.outputs.find((output) => output.label === label)!.records).toBe(ids[label].length);
  }
  const all = [...ids.train, ...ids.validation].map(Number).sort((a, b) => a - b);
  expect(all).toEqual(Array.from({ length: SAMPLE.csvRows }, (_, index) => index));
  expect(ids.train.length / SAMPLE.csvRows).toBeGreaterThan(0.7);
  expect(ids.validation.length / SAMPLE.csvRows).toBeGreaterThan(0.1);
});

test('CSV species strings became vocabulary ids: setosa 0, versicolor 1, virginica 2', async () => {
  const files = shardsOf('train');
  for await (const record of readExamples(files)) {
    const id = Number(record.features.id!.value[0]);
    expect(record.features.species).toEqual({ kind: 'int64', value: [BigInt(id % 3)] });
    expect(record.features.sepal_length!.kind).toBe('float');
  }
});

test('images: three shards of 64×64 JPEGs, labels by sorted class name, a DALI index per shard', async () => {
  const shards = result.images.outputs[0]!.summary.shards;
  expect(shards).toHaveLength(3);
  const labels = new Map<string, number>();
  for await (const record of readExamples(shards.map((shard) => shard.path))) {
    const { features } = record;
    const encoded = features['image/encoded']!.value[0] as Uint8Array;
    expect([encoded[0], encoded[1]]).toEqual([0xff, 0xd8]);
    expect(features['image/height']!.value).toEqual([64n]);
    expect(features['image/width']!.value).toEqual([64n]);
    const text = new TextDecoder().decode(features['image/class/text']!.value[0] as Uint8Array);
    labels.set(text, Number(features['image/class/label']!.value[0]));
  }
  expect(Object.fromEntries(labels)).toEqual({ circle: 0, square: 1, triangle: 2 });
  for (const shard of shards) {
    const index = await readFile(`${shard.path}.idx`, 'utf8');
    expect(index.trim().split('\n')).toHaveLength(shard.records);
  }
  const labelsFile = await readFile(path.join(directory, 'tfrecords/shapes/labels.txt'), 'utf8');
  expect(labelsFile.trim().split('\n')).toEqual(['0:circle', '1:square', '2:triangle']);
});

test('images read back: parsed and decoded into [32, 64, 64, 3] batches, every image once, printed', () => {
  const { imageBatches } = result;
  const total = SAMPLE.classes.length * SAMPLE.imagesPerClass;
  const sizes = [
    ...Array.from({ length: Math.floor(total / 32) }, () => 32),
    ...(total % 32 === 0 ? [] : [total % 32]),
  ];
  expect(imageBatches.imageShapes).toEqual(sizes.map((size) => [size, 64, 64, 3]));
  expect(imageBatches.labelShapes).toEqual(sizes.map((size) => [size]));
  expect(imageBatches.labelCounts).toEqual(
    Object.fromEntries(SAMPLE.classes.map((_, label) => [String(label), SAMPLE.imagesPerClass])),
  );
  // The shapes are drawn on a light background (red and green 230): a decode to zeros would average 0.
  expect(imageBatches.meanPixel).toBeGreaterThan(100);
  const text = printed.join('\n');
  expect(text).toContain('Image shards read back into batches');
  expect(text).toContain('batch 0: images [32, 64, 64, 3] uint8, labels [32] int64');
});

test('parquet: values match the generated rows, lists included', async () => {
  const files = result.parquet.outputs[0]!.summary.shards.map((shard) => shard.path);
  expect(files[0]).toMatch(/\.tfrecord\.gz$/);
  let row = 0;
  for await (const record of readExamples(files)) {
    expect(record.features.station_id!.value).toEqual([BigInt(1000 + row)]);
    const city = new TextDecoder().decode(record.features.city!.value[0] as Uint8Array);
    expect(city).toBe(SAMPLE.cities[row % SAMPLE.cities.length]);
    expect(record.features.readings!.value).toHaveLength(1 + (row % 4));
    row++;
  }
  expect(row).toBe(SAMPLE.parquetRows);
});

test('the built demo exits 0 as `pnpm demo` runs it, reusing the generated inputs', async () => {
  const entry = path.resolve(import.meta.dirname, '../dist/index.js');
  const { stdout } = await promisify(execFile)(process.execPath, [entry, directory]);
  expect(stdout).toContain('All three pipelines verified');
}, 60_000);
