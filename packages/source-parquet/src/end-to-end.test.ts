// Parquet → buildExamples (spec from parquetExampleSpec) → serialized tf.train.Example → decoded
// again with core's decoder. (@tfpipe/sink-tfrecord had no dist yet: the TFRecord framing leg is
// left to the CLI/bench helper.)
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildExamples, decodeExample, encodeExample } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import { collect } from '@tfpipe/core/testing';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parquetExampleSpec } from './parquet-example-spec.js';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';

let directory: string;
let file: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-e2e-'));
  file = path.join(directory, 'people.parquet');
  parquetWriteFile({
    filename: file,
    columnData: [
      { name: 'id', data: [9_007_199_254_740_993n, -1n], type: 'INT64' },
      { name: 'name', data: ['ada', null], type: 'STRING' },
      { name: 'height', data: [1.7, 0.1], type: 'DOUBLE' },
      { name: 'ok', data: [true, false], type: 'BOOLEAN' },
    ],
  });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

test('rows become Examples whose bytes decode to the same values (int64 exact, double narrowed to float32, null omitted)', async () => {
  const schema = await parquetSchema(file);
  const examples: Example[] = await collect(
    parquetSource({ path: file }).pipeThrough(buildExamples(parquetExampleSpec(schema))),
  );
  const decoded = examples.map((example) => decodeExample(encodeExample(example)));
  expect(decoded[0]!.features.id).toEqual({ kind: 'int64', value: [9_007_199_254_740_993n] });
  expect(decoded[1]!.features.id).toEqual({ kind: 'int64', value: [-1n] });
  expect(decoded[0]!.features.name?.kind).toBe('bytes');
  expect(new TextDecoder().decode((decoded[0]!.features.name!.value as Uint8Array[])[0])).toBe('ada');
  expect(decoded[1]!.features.name).toBeUndefined();
  expect(Array.from(decoded[0]!.features.height!.value as ArrayLike<number>)).toEqual([Math.fround(1.7)]);
  expect(decoded.map((example) => example.features.ok?.value)).toEqual([[1n], [0n]]);
});
