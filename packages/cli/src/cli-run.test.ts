import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tfrecordSource } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleCsv, writeConfig } from './__fixtures__/pipeline-files.js';
import { CORPUS, tfpipe } from './__fixtures__/run-cli.js';

const PARQUET = join(CORPUS, '../parquet/alltypes_plain.parquet');
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-run-'));
  await writeFile(join(directory, 'people.csv'), peopleCsv(400));
  await writeFile(join(directory, 'people-reversed.csv'), peopleCsv(400, true));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** `inspect --json` lines of some files, parsed. */
async function records(...files: string[]): Promise<{ features: { feature: Record<string, unknown> } }[]> {
  const shown = await tfpipe(['inspect', '--json', ...files]);
  expect(shown.stderr).toBe('');
  return shown.stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { features: { feature: Record<string, unknown> } });
}

/** The record payloads of a TFRecord file, in file order, as hex. */
async function payloads(file: string): Promise<string[]> {
  const list: string[] = [];
  for await (const record of tfrecordSource({ paths: file }))
    list.push(Buffer.from(record.data).toString('hex'));
  return list;
}

function ids(list: { features: { feature: Record<string, unknown> } }[]): string[] {
  return list.map((record) => {
    const id = record.features.feature.id as { bytesList: { value: string[] } };
    return Buffer.from(id.bytesList.value[0]!, 'base64').toString();
  });
}

const splitConfig = (csv: string, out: string, extra: object = {}) => ({
  source: { plugin: '@tfpipe/source-csv', options: { path: csv } },
  transforms: [{ filter: "age >= 18 and country in ['DE', 'FR', 'US']" }],
  split: { key: 'id', ratios: { train: 0.8, validation: 0.1, test: 0.1 } },
  sink: { plugin: '@tfpipe/sink-tfrecord', options: { directory: out, shards: 2 } },
  ...extra,
});

describe('tfpipe run', () => {
  it('runs a CSV pipeline: filter, split by key hash, one shard set per split, a reader spec', async () => {
    const config = await writeConfig(directory, 'csv.json', splitConfig('people.csv', 'csv-out'));
    const result = await tfpipe(['run', config]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = join(directory, 'csv-out');
    expect((await readdir(out)).sort()).toEqual([
      'reader_spec.py',
      'test-00000-of-00002.tfrecord',
      'test-00001-of-00002.tfrecord',
      'train-00000-of-00002.tfrecord',
      'train-00001-of-00002.tfrecord',
      'validation-00000-of-00002.tfrecord',
      'validation-00001-of-00002.tfrecord',
    ]);
    const kept = peopleCsv(400)
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
      .filter(([, age, country]) => Number(age) >= 18 && country !== 'JP');
    const train = ids(await records(join(out, 'train-*')));
    const validation = ids(await records(join(out, 'validation-*')));
    const test = ids(await records(join(out, 'test-*')));
    expect([...train, ...validation, ...test].sort()).toEqual(kept.map(([id]) => id).sort());
    expect(train.length / kept.length).toBeGreaterThan(0.7);
    expect(validation.length).toBeGreaterThan(0);
    expect(test.length).toBeGreaterThan(0);
    expect(result.stdout).toContain(
      `splits: train ${train.length}, validation ${validation.length}, test ${test.length}`,
    );

    // `schema --format tfds` recovers the splits from the shard names, with every shard's length.
    const tfds = await tfpipe([
      'schema',
      '--format',
      'tfds',
      '--out',
      join(directory, 'csv-tfds'),
      join(out, '*.tfrecord'),
    ]);
    expect(tfds.stderr).toBe('');
    const info = JSON.parse(await readFile(join(directory, 'csv-tfds', 'dataset_info.json'), 'utf8')) as {
      splits: { name: string; shardLengths: string[]; filepathTemplate: string }[];
    };
    const lengths = Object.fromEntries(
      info.splits.map((split) => [
        split.name,
        split.shardLengths.reduce((sum, length) => sum + Number(length), 0),
      ]),
    );
    expect(lengths).toEqual({ test: test.length, train: train.length, validation: validation.length });
    expect(info.splits.find((split) => split.name === 'train')?.filepathTemplate).toBe(
      'train-{SHARD_X_OF_Y}.tfrecord',
    );
  });

  it('assigns the same split to each id across runs and whatever the input order', async () => {
    await writeConfig(directory, 'a.json', splitConfig('people.csv', 'split-a'));
    await writeConfig(directory, 'b.json', splitConfig('people-reversed.csv', 'split-b'));
    await writeConfig(directory, 'c.json', splitConfig('people.csv', 'split-c'));
    for (const name of ['a.json', 'b.json', 'c.json'])
      expect((await tfpipe(['run', join(directory, name)])).code).toBe(0);
    for (const split of ['train', 'validation', 'test']) {
      const a = ids(await records(join(directory, 'split-a', `${split}-*`)));
      const b = ids(await records(join(directory, 'split-b', `${split}-*`)));
      expect([...b].sort()).toEqual([...a].sort());
      const c = await readFile(join(directory, 'split-c', `${split}-00000-of-00002.tfrecord`));
      expect(c.equals(await readFile(join(directory, 'split-a', `${split}-00000-of-00002.tfrecord`)))).toBe(
        true,
      );
    }
  });

  it('writes a reader spec that matches the golden text and the written data', async () => {
    const config = await writeConfig(directory, 'spec.json', {
      source: { plugin: 'csv', options: { path: 'people.csv' } },
      spec: {
        id: 'bytes',
        age: 'int64',
        score: 'float',
        tags: { kind: 'bytes', field: 'country', split: ';' },
      },
      transforms: [{ take: 10 }],
      sink: { plugin: 'tfrecord', options: { directory: 'spec-out' } },
      readerSpec: ['tf', 'tfds'],
    });
    expect((await tfpipe(['run', config])).code).toBe(0);
    const out = join(directory, 'spec-out');
    const spec = await readFile(join(out, 'reader_spec.py'), 'utf8');
    expect(spec).toBe(`# Written by tfpipe: how to read the TFRecord files in this directory (run from it).
import tensorflow as tf

feature_description = {
    "age": tf.io.FixedLenFeature([], tf.int64),
    "id": tf.io.FixedLenFeature([], tf.string),
    "score": tf.io.FixedLenFeature([], tf.float32),
    "tags": tf.io.FixedLenFeature([], tf.string),
}

def parse(serialized):
    return tf.io.parse_single_example(serialized, feature_description)

dataset = tf.data.TFRecordDataset(["data-00000-of-00001.tfrecord"]).map(parse)
`);
    // The same spec read back from the written file by `tfpipe schema`.
    const fromData = await tfpipe(['schema', '--format', 'tf', join(out, 'data-00000-of-00001.tfrecord')]);
    const body = (text: string) => text.slice(text.indexOf('feature_description'), text.indexOf('def parse'));
    expect(body(fromData.stdout)).toBe(body(spec));
    const info = JSON.parse(await readFile(join(out, 'dataset_info.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const size = (await stat(join(out, 'data-00000-of-00001.tfrecord'))).size;
    expect(info).toEqual({
      name: 'spec-out',
      version: '1.0.0',
      description: 'Written by tfpipe.',
      fileFormat: 'tfrecord',
      splits: [
        {
          name: 'train',
          numBytes: String(size),
          shardLengths: ['10'],
          filepathTemplate: 'data-{SHARD_X_OF_Y}.tfrecord',
        },
      ],
    });
    const features = JSON.parse(await readFile(join(out, 'features.json'), 'utf8')) as {
      featuresDict: { features: Record<string, unknown> };
    };
    expect(features.featuresDict.features.age).toEqual({
      pythonClassName: 'tensorflow_datasets.core.features.scalar.Scalar',
      tensor: { shape: {}, dtype: 'int64', encoding: 'none' },
    });
  });

  it('CSV encoded straight to Examples (nothing reads fields) writes what the row path writes, shuffled or not', async () => {
    const run = async (out: string, extra: object) => {
      const config = await writeConfig(directory, `${out}.json`, {
        source: { plugin: '@tfpipe/source-csv', options: { path: 'people.csv' } },
        sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: `${out}.tfrecord` } },
        ...extra,
      });
      const result = await tfpipe(['run', config, '--json']);
      expect(result.stderr).toBe('');
      return records(join(directory, `${out}.tfrecord`));
    };
    // A transform reads fields, so those rows take the Feature path: the reference here.
    const rows = await run('csv-rows', { transforms: [{ filter: 'age >= 0' }] });
    const direct = await run('csv-direct', {});
    const shuffled = await run('csv-shuffled', { shuffle: { seed: 5, buffer: 64 } });
    const fully = await run('csv-fully', { shuffle: { seed: 5, full: true, memory: '256K' } });
    expect(rows.length).toBeGreaterThan(100);
    expect(direct).toEqual(rows);
    expect(ids(shuffled)).not.toEqual(ids(rows));
    const sorted = (list: typeof rows) => list.map((record) => JSON.stringify(record)).sort();
    expect(sorted(shuffled)).toEqual(sorted(rows));
    expect(ids(fully)).not.toEqual(ids(rows));
    expect(sorted(fully)).toEqual(sorted(rows));
  });

  it('shuffles fully through temporary files: every record once, a new order, the same for the same seed', async () => {
    const corpusFile = join(CORPUS, 'tfx_mnist_floats.tfrecord');
    const make = (out: string, seed: number) =>
      writeConfig(directory, `${out}.json`, {
        source: { plugin: '@tfpipe/sink-tfrecord', options: { paths: corpusFile } },
        shuffle: { seed, full: true, memory: '256K' },
        sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: `${out}.tfrecord` } },
      });
    for (const [out, seed] of [
      ['shuf-a', 1],
      ['shuf-b', 1],
      ['shuf-c', 2],
    ] as const) {
      const result = await tfpipe(['run', await make(out, seed), '--json']);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ recordsWritten: 1000 });
    }
    // The records' payloads, compared as bytes: what inspect --json would show, without printing it.
    const original = await payloads(corpusFile);
    const a = await payloads(join(directory, 'shuf-a.tfrecord'));
    const b = await payloads(join(directory, 'shuf-b.tfrecord'));
    const c = await payloads(join(directory, 'shuf-c.tfrecord'));
    expect(original).toHaveLength(1000);
    expect([...a].sort()).toEqual([...original].sort());
    expect(a).not.toEqual(original);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect((await readdir(tmpdir())).filter((name) => name.startsWith('tfpipe-shuffle-'))).toEqual([]);
  }, 120_000);

  it('runs Parquet, JSON Lines and image folder configs end to end', async () => {
    const parquet = await writeConfig(directory, 'parquet.json', {
      source: { plugin: '@tfpipe/source-parquet', options: { path: PARQUET, columns: ['id', 'string_col'] } },
      transforms: [{ filter: 'id >= 2' }],
      sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: 'parquet.tfrecord' } },
    });
    expect((await tfpipe(['run', parquet])).code).toBe(0);
    const fromParquet = await records(join(directory, 'parquet.tfrecord'));
    expect(fromParquet.map((record) => record.features.feature.id)).toEqual(
      // alltypes_plain.parquet holds ids 4, 5, 6, 7, 2, 3, 0, 1 in that order
      [4, 5, 6, 7, 2, 3].map((id) => ({ int64List: { value: [String(id)] } })),
    );

    await writeFile(
      join(directory, 'in.jsonl'),
      (await tfpipe(['inspect', '--json', join(CORPUS, 'pwnall_singles.tfrecords')])).stdout,
    );
    const jsonl = await writeConfig(directory, 'jsonl.yaml', {});
    await writeFile(
      jsonl,
      'source:\n  plugin: jsonl\n  options: { path: in.jsonl }\nsink:\n  plugin: tfrecord\n  options: { path: jsonl.tfrecord }\n',
    );
    expect((await tfpipe(['run', jsonl])).code).toBe(0);
    expect(await records(join(directory, 'jsonl.tfrecord'))).toEqual(
      await records(join(CORPUS, 'pwnall_singles.tfrecords')),
    );

    // Real JPEGs from the raccoon corpus file, in two class folders.
    const raccoon = await records(join(CORPUS, 'raccoon_test_jpeg.record'));
    for (const [index, record] of raccoon.slice(0, 6).entries()) {
      const folder = join(directory, 'images', index % 2 === 0 ? 'cat' : 'dog');
      await mkdir(folder, { recursive: true });
      const encoded = record.features.feature['image/encoded'] as { bytesList: { value: string[] } };
      await writeFile(join(folder, `${index}.jpg`), Buffer.from(encoded.bytesList.value[0]!, 'base64'));
    }
    const images = await writeConfig(directory, 'images.json', {
      source: {
        plugin: '@tfpipe/source-images',
        options: { folder: 'images', resize: { width: 32, height: 32 } },
      },
      transforms: [{ filter: '`image/class/text` == "dog"' }],
      sink: { plugin: '@tfpipe/sink-tfrecord', options: { directory: 'images-out' } },
    });
    const ran = await tfpipe(['run', images]);
    expect(ran.stderr).toBe('');
    const dogs = await records(join(directory, 'images-out', 'data-*'));
    expect(dogs).toHaveLength(3);
    expect(
      dogs.every(
        (record) =>
          JSON.stringify(record.features.feature['image/width']) === '{"int64List":{"value":["32"]}}',
      ),
    ).toBe(true);
    expect(await readdir(join(directory, 'images-out'))).toContain('labels.txt');
  });

  it('--dry-run prints the plan, the inferred spec and the first Examples, and writes nothing', async () => {
    const config = await writeConfig(
      directory,
      'dry.json',
      splitConfig('people.csv', 'dry-out', { shuffle: { seed: 3, buffer: 100 } }),
    );
    const result = await tfpipe(['run', config, '--dry-run', '--sample', '50', '--show', '2']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  source     @tfpipe/source-csv');
    expect(result.stdout).toContain("  transform  filter age >= 18 and country in ['DE', 'FR', 'US']");
    expect(result.stdout).toContain(
      '  split      by hash of "id" (FNV-1a 64 + fmix64): train 0.8, validation 0.1, test 0.1',
    );
    expect(result.stdout).toContain('  shuffle    buffer of 100 records, seed 3');
    expect(result.stdout).toMatch(/sampled 50 record\(s\): train \d+, /);
    expect(result.stdout).toContain('"age": tf.io.FixedLenFeature([], tf.int64),');
    expect(result.stdout).toContain('first 2 record(s):\n{"features":{"feature":{');
    await expect(stat(join(directory, 'dry-out'))).rejects.toThrow();
  });

  it('convert --save-config writes a pipeline that tfpipe run reproduces byte for byte', async () => {
    const first = await tfpipe(
      [
        'convert',
        'people.csv',
        'conv-a',
        '--shards',
        '3',
        '--label',
        'country',
        '--save-config',
        'saved/pipeline.json',
      ],
      { cwd: directory },
    );
    expect(first.stderr).toBe('');
    const saved = JSON.parse(await readFile(join(directory, 'saved', 'pipeline.json'), 'utf8')) as {
      source: { options: { path: string } };
      sink: { options: { directory: string } };
    };
    expect(saved.source.options.path).toBe('../people.csv');
    saved.sink.options.directory = '../conv-b';
    await writeFile(join(directory, 'saved', 'pipeline.json'), JSON.stringify(saved));
    expect((await tfpipe(['run', join(directory, 'saved', 'pipeline.json')])).code).toBe(0);
    const a = (await readdir(join(directory, 'conv-a'))).sort();
    expect(a).toEqual((await readdir(join(directory, 'conv-b'))).sort());
    expect(a).toContain('vocabulary-country.txt');
    for (const name of a) {
      const left = await readFile(join(directory, 'conv-a', name));
      expect(left.equals(await readFile(join(directory, 'conv-b', name)))).toBe(true);
    }
  });
});
