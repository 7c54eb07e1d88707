import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Example } from '@tfpipe/core';
import { verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { readAll } from '../__fixtures__/read-all.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestImages } from '../../../../test-support/test-images.js';
import { runPipelineConfig } from '../run/run-pipeline-config.js';
import { planPipeline } from './plan-pipeline.js';
import { runPlannedPipeline } from './run-planned.js';
import { workShard } from './work-shard.js';

let directory: string;
// Three classes of uneven size, one with a name that sorts after the others by UTF-8 bytes.
const FOLDER_IMAGES = [
  ...Array.from({ length: 7 }, (_, index) => `images/cat/c${index}.png`),
  ...Array.from({ length: 11 }, (_, index) => `images/dog/d${String(index).padStart(2, '0')}.jpg`),
  ...Array.from({ length: 5 }, (_, index) => `images/émeu/e${index}.png`),
];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-plan-images-'));
  await writeTestImages(directory, FOLDER_IMAGES);
  await writeTestImages(
    directory,
    Array.from({ length: 9 }, (_, index) => `coco/img${index}.jpg`),
  );
  const coco = {
    images: Array.from({ length: 9 }, (_, index) => ({
      id: 100 + index,
      file_name: `img${index}.jpg`,
      width: 24,
      height: 16,
    })),
    annotations: Array.from({ length: 9 }, (_, index) => ({
      id: 500 + index,
      image_id: 100 + index,
      category_id: (index % 2) + 1,
      bbox: [index % 5, 2, 10, 8],
      iscrowd: 0,
      area: 80,
    })),
    categories: [
      { id: 1, name: 'ball' },
      { id: 2, name: 'cone' },
    ],
  };
  await writeFile(join(directory, 'coco/instances.json'), JSON.stringify(coco));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const text = (example: Example, key: string): string =>
  new TextDecoder().decode((example.features[key]?.value as Uint8Array[])[0]);

describe('plans of image inputs', () => {
  it("cuts class folders into runs of images: the shards in order hold the single run's records, label map alike", async () => {
    const options = {
      folder: join(directory, 'images'),
      resize: { width: 8, height: 8 },
      format: 'jpeg',
      quality: 80,
    };
    const config = (out: string, shards?: number) => ({
      source: { plugin: 'images', options },
      sink: {
        plugin: 'tfrecord',
        options: { directory: join(directory, out), ...(shards === undefined ? {} : { shards }) },
      },
    });
    const planned = await runPlannedPipeline(config('planned'), { shards: 3 });
    // 23 images, 3 indexes × 4 units wanted: runs of 2.
    expect(planned.plan.units.slice(0, 2)).toEqual([
      { input: -1, kind: 'images', start: 0, end: 2 },
      { input: -1, kind: 'images', start: 2, end: 4 },
    ]);
    expect(planned.plan.units).toHaveLength(12);
    expect(planned.plan.sourceOptions.labelMap).toEqual([
      { id: 0, name: 'cat' },
      { id: 1, name: 'dog' },
      { id: 2, name: 'émeu' },
    ]);
    expect(planned.records).toBe(FOLDER_IMAGES.length);
    expect(planned.files).toContain('labels.txt');

    const single = await runPipelineConfig(config('single'));
    const files = planned.shards.map((name) => join(directory, 'planned', name));
    expect((await verifyTfrecord(files)).records).toBe(FOLDER_IMAGES.length);
    const plannedExamples = await readAll(files);
    const singleExamples = await readAll(single.summary.shards.map((shard) => shard.path));
    expect(plannedExamples.map((example) => text(example, 'image/filename'))).toEqual(
      FOLDER_IMAGES.map((name) => name.slice('images/'.length)),
    );
    expect(plannedExamples).toEqual(singleExamples);
    // Shard 2 starts with dog images: its ids come from the plan's label map, not from what it met.
    const last = await readAll([files[2]!]);
    expect(last.map((example) => text(example, 'image/class/text'))[0]).toBe('dog');
    expect(await readFile(join(directory, 'planned', 'labels.txt'), 'utf8')).toBe(
      await readFile(join(directory, 'single', 'labels.txt'), 'utf8'),
    );

    // Two worker processes (the built worker script, as the CLI forks it) write the same bytes.
    const two = await runPlannedPipeline(config('two'), {
      shards: 3,
      workers: 2,
      workerScript: fileURLToPath(new URL('../../dist/work-child.js', import.meta.url)),
    });
    for (const name of two.shards) {
      const bytes = await readFile(join(directory, 'two', name));
      expect(bytes.equals(await readFile(join(directory, 'planned', name))), name).toBe(true);
    }
  }, 120_000);

  it('cuts a COCO file: boxes, category ids and the manifest as a single run writes them', async () => {
    const config = (out: string) => ({
      source: { plugin: 'images', options: { coco: join(directory, 'coco/instances.json') } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, out) } },
    });
    const planned = await runPlannedPipeline(config('coco-planned'), { shards: 2 });
    expect(planned.plan.inputs.map((input) => input.path)).toEqual([join(directory, 'coco/instances.json')]);
    expect(planned.plan.units.every((unit) => unit.kind === 'images' && unit.input === 0)).toBe(true);
    const single = await runPipelineConfig(config('coco-single'));
    const plannedExamples = await readAll(
      planned.shards.map((name) => join(directory, 'coco-planned', name)),
    );
    const singleExamples = await readAll(single.summary.shards.map((shard) => shard.path));
    expect(plannedExamples).toHaveLength(9);
    expect(plannedExamples).toEqual(singleExamples);
    expect(plannedExamples.map((example) => text(example, 'image/source_id'))).toEqual(
      Array.from({ length: 9 }, (_, index) => String(100 + index)),
    );
  }, 60_000);

  it('cuts Pascal VOC: objects, class ids from 1 and labels.txt as a single run writes them', async () => {
    const root = join(directory, 'voc');
    const names = Array.from({ length: 7 }, (_, index) => `img${index}.jpg`);
    await writeTestImages(join(root, 'JPEGImages'), names);
    await mkdir(join(root, 'Annotations'));
    const classes = ['zebra', 'ball', 'cone'];
    for (const [index, name] of names.entries()) {
      const object = (label: string, x: number): string =>
        `<object><name>${label}</name><pose>Unspecified</pose><truncated>0</truncated><difficult>0</difficult><bndbox><xmin>${x}</xmin><ymin>2</ymin><xmax>${x + 8}</xmax><ymax>12</ymax></bndbox></object>`;
      const objects = [object(classes[index % 3]!, 1 + index), object(classes[(index + 1) % 3]!, 10)];
      await writeFile(
        join(root, 'Annotations', `a${index}.xml`),
        `<annotation><filename>${name}</filename><size><width>24</width><height>16</height><depth>3</depth></size>${objects.join('')}</annotation>`,
      );
    }
    const config = (out: string) => ({
      source: { plugin: 'images', options: { voc: join(root, 'Annotations') } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, out) } },
    });
    const planned = await runPlannedPipeline(config('voc-planned'), { shards: 3 });
    expect(planned.plan.sourceOptions.labelMap).toEqual([
      { id: 1, name: 'ball' },
      { id: 2, name: 'cone' },
      { id: 3, name: 'zebra' },
    ]);
    const single = await runPipelineConfig(config('voc-single'));
    const plannedExamples = await readAll(planned.shards.map((name) => join(directory, 'voc-planned', name)));
    expect(plannedExamples).toHaveLength(7);
    expect(plannedExamples).toEqual(await readAll(single.summary.shards.map((shard) => shard.path)));
    expect(await readFile(join(directory, 'voc-planned', 'labels.txt'), 'utf8')).toBe(
      await readFile(join(directory, 'voc-single', 'labels.txt'), 'utf8'),
    );
  }, 60_000);

  it('refuses a folder whose listing changed since planning, and counts error positions in the whole input', async () => {
    const root = join(directory, 'changing');
    await writeTestImages(root, ['a/1.png', 'a/2.png', 'b/1.png', 'b/2.png', 'b/3.png', 'b/4.png']);
    // A zero-byte image at place 4 of the input's order (b/3.png), in the second index's run.
    await writeFile(join(root, 'b/3.png'), '');
    const config = {
      source: { plugin: 'images', options: { folder: root } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, 'changing-out') } },
    };
    const plan = await planPipeline(config, { shards: 2, unitImages: 3 });
    expect(plan.shards.map((shard) => shard.units)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(await workShard(plan, 1).catch((error: unknown) => error)).toMatchObject({
      code: 'IMAGE_DECODE',
      position: { file: join(root, 'b/3.png'), recordIndex: 4 },
    });
    await writeTestImages(root, ['c/1.png']);
    expect(await workShard(plan, 0).catch((error: unknown) => error)).toMatchObject({
      code: 'INPUT_CHANGED',
      position: { file: root },
    });
  }, 60_000);

  it('refuses ranges or a listing digest set by hand, and a unit size of 0', async () => {
    const config = (options: object) => ({
      source: { plugin: 'images', options: { folder: join(directory, 'images'), ...options } },
      sink: { plugin: 'tfrecord', options: { directory: join(directory, 'refused') } },
    });
    expect(
      await planPipeline(config({ listingSha256: 'a'.repeat(64) })).catch((error: unknown) => error),
    ).toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('imageSource option listingSha256'),
    });
    expect(await planPipeline(config({}), { unitImages: 0 }).catch((error: unknown) => error)).toMatchObject({
      code: 'INVALID_OPTION',
      position: { field: 'unitImages' },
    });
  });
});
