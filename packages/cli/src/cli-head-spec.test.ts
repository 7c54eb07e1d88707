import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesList, example, floatList, int64List, sequenceExample } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CORPUS, tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
const path = (name: string): string => join(directory, name);
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-cli-head-spec-'));
  const writer = await createTfrecordWriter({ path: path('data.tfrecord') });
  const ids = [2n ** 63n - 1n, -(2n ** 63n), 7n];
  for (const [index, id] of ids.entries()) {
    await writer.write(
      example({
        id: int64List([id]),
        name: bytesList([new Uint8Array([0xff, index])]),
        score: floatList([index === 1 ? NaN : 0.1 * index]),
        tags: bytesList(Array.from({ length: index }, () => 'x')),
      }),
    );
  }
  await writer.close();
  await writeFile(
    path('spec.json'),
    JSON.stringify({
      features: {
        id: { type: 'fixedLen', shape: [], dtype: 'int64' },
        name: { type: 'fixedLen', shape: [], dtype: 'string' },
        score: { type: 'fixedLen', shape: [], dtype: 'float32' },
        tags: { type: 'varLen', dtype: 'string' },
        ids: { type: 'ragged', dtype: 'int64', valueKey: 'id' },
      },
    }),
  );
  const sequences = await createTfrecordWriter({ path: path('seq.tfrecord') });
  for (let index = 0; index < 2; index++) {
    await sequences.write(
      sequenceExample(
        { id: int64List([index]) },
        { frames: Array.from({ length: index + 1 }, () => floatList([index])) },
      ),
    );
  }
  await sequences.close();
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const lines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('tfpipe head --spec', () => {
  test('prints parsed batches of --batch records: int64 exact, bytes base64, sparse and ragged parts', async () => {
    const result = await tfpipe(['head', path('data.tfrecord'), '--spec', path('spec.json'), '--batch', '2']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [first, second, ...rest] = lines(result.stdout);
    expect(rest).toEqual([]);
    expect(first).toEqual({
      id: {
        kind: 'dense',
        dtype: 'int64',
        shape: [2],
        data: ['9223372036854775807', '-9223372036854775808'],
      },
      name: { kind: 'dense', dtype: 'string', shape: [2], data: ['/wA=', '/wE='] },
      score: { kind: 'dense', dtype: 'float32', shape: [2], data: [0, 'NaN'] },
      tags: {
        kind: 'sparse',
        dtype: 'string',
        shape: [1],
        denseShape: [2, 1],
        indices: [1, 0],
        data: ['eA=='],
      },
      ids: {
        kind: 'ragged',
        dtype: 'int64',
        shape: [2],
        rowSplits: [[0, 1, 2]],
        data: ['9223372036854775807', '-9223372036854775808'],
      },
    });
    expect(second).toMatchObject({ id: { shape: [1], data: ['7'] }, score: { data: [0.2] } });
  });

  test('-n counts records, not batches; the last batch is short', async () => {
    const result = await tfpipe([
      'head',
      '-n',
      '1',
      path('data.tfrecord'),
      '--spec',
      path('spec.json'),
      '--batch',
      '5',
    ]);
    expect(lines(result.stdout).map((batch) => (batch.id as { shape: number[] }).shape)).toEqual([[1]]);
    const mnist = await tfpipe([
      'head',
      join(CORPUS, 'tfx_mnist_floats.tfrecord'),
      '--spec',
      path('mnist.json'),
    ]);
    expect(mnist.code).toBe(2);
    await writeFile(
      path('mnist.json'),
      (await tfpipe(['schema', join(CORPUS, 'tfx_mnist_floats.tfrecord'), '--format', 'spec'])).stdout,
    );
    const parsed = await tfpipe([
      'head',
      '-n',
      '25',
      join(CORPUS, 'tfx_mnist_floats.tfrecord'),
      '--spec',
      path('mnist.json'),
      '--batch',
      '10',
    ]);
    expect(lines(parsed.stdout).map((batch) => (batch.image_floats as { shape: number[] }).shape)).toEqual([
      [10, 784],
      [10, 784],
      [5, 784],
    ]);
  });

  test('SequenceExamples: context, featureLists and lengths', async () => {
    await writeFile(
      path('seq.json'),
      '{"features":{"id":{"type":"fixedLen","shape":[],"dtype":"int64"}},"featureLists":{"frames":{"type":"fixedLenSequence","shape":[],"dtype":"float32"}}}',
    );
    const result = await tfpipe(['head', path('seq.tfrecord'), '--spec', path('seq.json'), '--batch', '2']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      {
        context: { id: { kind: 'dense', dtype: 'int64', shape: [2], data: ['0', '1'] } },
        featureLists: { frames: { kind: 'dense', dtype: 'float32', shape: [2, 2], data: [0, 0, 1, 1] } },
        lengths: { frames: { kind: 'dense', dtype: 'int64', shape: [2], data: ['1', '2'] } },
      },
    ]);
  });

  test('without --spec it prints records as before; --batch alone is a usage error', async () => {
    const plain = await tfpipe(['head', '-n', '1', path('data.tfrecord')]);
    expect(lines(plain.stdout)[0]).toHaveProperty('features.feature.id.int64List.value', [
      '9223372036854775807',
    ]);
    const batch = await tfpipe(['head', path('data.tfrecord'), '--batch', '2']);
    expect(batch).toMatchObject({ code: 2 });
    expect(batch.stderr).toMatch(/^tfpipe head: --batch needs --spec/);
    const zero = await tfpipe(['head', path('data.tfrecord'), '--spec', path('spec.json'), '--batch', '0']);
    expect(zero.stderr).toMatch(/--batch: expected a whole number of at least 1/);
  });

  test('a bad spec names its JSON path; a wrong kind names the feature, file and record', async () => {
    await writeFile(path('bad.json'), '{"features":{"id":{"type":"varLen","dtype":"int8"}}}');
    const bad = await tfpipe(['head', path('data.tfrecord'), '--spec', path('bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^tfpipe head: --spec \$\.features\.id\.dtype: expected one of int64, int32, number, float32, string, got "int8"/,
    );
    await writeFile(
      path('wrong.json'),
      '{"features":{"tags":{"type":"fixedLen","shape":[],"dtype":"string"}}}',
    );
    const wrong = await tfpipe(['head', path('data.tfrecord'), '--spec', path('wrong.json'), '--batch', '3']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /Key: tags, Index: 0\. {1,2}Number of bytes values != expected\. {1,2}Values size: 0 but output shape: \[\]/,
    );
    expect(wrong.stderr).toMatch(/record 0/);
    expect(wrong.stderr).toContain('data.tfrecord');
  });
});
