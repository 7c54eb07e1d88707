// A shard of an image plan lends its kept images to the sink as a single run does (core's buffer
// lending): its units keep the image source's lending switch.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestImages } from '../../../../test-support/test-images.js';
import { runPipeline } from '../run/run-pipeline.js';
import { planPipeline } from './plan-pipeline.js';
import { shardPipeline } from './work-shard.js';

let directory: string;
const IMAGES = Array.from({ length: 16 }, (_, index) => `images/${index % 2 ? 'cat' : 'dog'}/i${index}.jpg`);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-plan-lending-'));
  await writeTestImages(directory, IMAGES);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs index 1 of a 4-index plan of the image folder; whether its source lent, and what it wrote. */
async function shardRun(name: string, transforms: object[] = []) {
  const plan = await planPipeline(
    {
      source: { plugin: 'images', options: { folder: join(directory, 'images') } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, name) } },
      ...(transforms.length === 0 ? {} : { transforms }),
    } as never,
    { shards: 4 },
  );
  const staging = join(directory, `${name}-staging`);
  await mkdir(staging);
  const { summary } = await runPipeline(await shardPipeline(plan, 1, staging));
  const source = summary.stages.find((stage) => stage.stage === 'imageSource');
  const written = new Map<string, Buffer>();
  for (const shard of summary.shards) {
    for await (const record of readExamples(shard.path)) {
      const file = record.features['image/filename'];
      const encoded = record.features['image/encoded'];
      if (file?.kind !== 'bytes' || encoded?.kind !== 'bytes') throw new Error('missing image keys');
      written.set(basename(Buffer.from(file.value[0]!).toString()), Buffer.from(encoded.value[0]!));
    }
  }
  return { lending: source?.details?.lending, written };
}

describe('a shard of an image plan', () => {
  it('lends its kept images to the sink, and writes each image of its runs exactly', async () => {
    const { lending, written } = await shardRun('lent');
    expect(lending).toBe(true);
    expect(written.size).toBe(4);
    for (const [name, bytes] of written) {
      const path = IMAGES.find((image) => basename(image) === name)!;
      expect(bytes.equals(await readFile(join(directory, path)))).toBe(true);
    }
  });

  it('does not lend through a transform, as a single run does not', async () => {
    const { lending } = await shardRun('filtered', [{ filter: '`image/class/text` == "dog"' }]);
    expect(lending).toBe(false);
  });
});
