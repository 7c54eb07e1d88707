import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { example, int64 } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-cli-head-'));
  for (const [name, ids] of [
    ['a.tfrecord', [2n ** 53n + 1n, -(2n ** 63n)]],
    ['b.tfrecord', [7n, 8n]],
  ] as const) {
    const writer = await createTfrecordWriter({ path: join(directory, name) });
    for (const id of ids) await writer.write(example({ id: int64(id) }));
    await writer.close();
  }
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const ids = (stdout: string): unknown[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { features: { feature: { id: { int64List: { value: string[] } } } } })
    .map((record) => record.features.feature.id.int64List.value[0]);

describe('tfpipe head', () => {
  it('prints the first N records across the files in order, int64 exact', async () => {
    const result = await tfpipe(['head', '-n', '3', join(directory, '*.tfrecord')]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(ids(result.stdout)).toEqual(['9007199254740993', '-9223372036854775808', '7']);
    expect(ids((await tfpipe(['head', '--records', '1', join(directory, 'b.tfrecord')])).stdout)).toEqual([
      '7',
    ]);
    expect(await tfpipe(['head', '-n', '0', join(directory, 'a.tfrecord')])).toMatchObject({
      code: 0,
      stdout: '',
    });
  });

  it('prints 10 records by default', async () => {
    const mnist = await tfpipe(['head', join(CORPUS, 'tfx_mnist_floats.tfrecord')]);
    expect(mnist.code).toBe(0);
    expect(mnist.stdout.trim().split('\n')).toHaveLength(10);
  });

  it('names its flag in usage errors, and is listed by --help', async () => {
    const bad = await tfpipe(['head', '-n', 'ten', join(directory, 'a.tfrecord')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^tfpipe head: --records: expected a whole number/);
    expect((await tfpipe(['--help'])).stdout).toMatch(/\n {2}head +print the first records as JSON lines/);
  });
});
