// tfpipe run / convert lend kept images' buffers through their own stages (see core's Buffer lending).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TFRECORD_CORPUS as CORPUS } from '../../../../test-support/corpus.js';
import { loadPipeline } from '../config/load-pipeline.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { runPipeline } from './run-pipeline.js';

let directory: string;
/** The JPEGs written under `images/`, by file name. */
const images = new Map<string, Buffer>();

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-lending-'));
  // Real JPEGs (the raccoon corpus file), in two class folders.
  let index = 0;
  for await (const record of readExamples(join(CORPUS, 'raccoon_test_jpeg.record'))) {
    if (index === 12) break;
    const feature = record.features['image/encoded'];
    if (feature?.kind !== 'bytes') throw new Error('raccoon record without image/encoded');
    const name = `${index}.jpg`;
    const folder = join(directory, 'images', index % 2 === 0 ? 'cat' : 'dog');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, name), feature.value[0]!);
    images.set(name, Buffer.from(feature.value[0]!));
    index++;
  }
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** Runs `extra` over the image folder into `out/`; returns whether the source lent, and the records. */
async function convert(out: string, extra: Partial<PipelineConfig> = {}) {
  const config = {
    source: { plugin: '@tfpipe/source-images', options: { folder: 'images' } },
    sink: { plugin: '@tfpipe/sink-tfrecord', options: { directory: out } },
    ...extra,
  } as PipelineConfig;
  const loaded = await loadPipeline(config, { baseDirectory: directory });
  const { summary } = await runPipeline(loaded);
  const source = summary.stages.find((stage) => stage.stage === 'imageSource');
  const written = new Map<string, Buffer>();
  for (const shard of summary.shards) {
    for await (const record of readExamples(shard.path)) {
      const name = record.features['image/filename'];
      const encoded = record.features['image/encoded'];
      if (name?.kind !== 'bytes' || encoded?.kind !== 'bytes') throw new Error('missing image keys');
      written.set(basename(Buffer.from(name.value[0]!).toString()), Buffer.from(encoded.value[0]!));
    }
  }
  return { lending: source?.details?.lending, written };
}

describe('runPipeline with an image source', () => {
  it('lends kept images through its Example, statistics and shuffle stages, and writes every image exactly', async () => {
    for (const [out, extra] of [
      ['plain', {}],
      ['shuffled', { shuffle: { seed: 1, buffer: 4 } }],
    ] as const) {
      const { lending, written } = await convert(out, extra);
      expect([out, lending]).toEqual([out, true]);
      expect(written.size).toBe(images.size);
      for (const [name, bytes] of images) expect(written.get(name)?.equals(bytes)).toBe(true);
    }
  });

  it('does not lend through a transform, which may keep what it reads', async () => {
    const { lending, written } = await convert('filtered', {
      transforms: [{ filter: '`image/class/text` == "dog"' }],
    });
    expect(lending).toBe(false);
    expect(written.size).toBe(images.size / 2);
    for (const [name, bytes] of written) expect(bytes.equals(images.get(name)!)).toBe(true);
  });
});
