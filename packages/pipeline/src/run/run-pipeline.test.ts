import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleCsv } from '../../../../test-support/people-csv.js';
import { loadPipelineFile } from '../config/load-pipeline.js';
import { parsePipelineConfig } from '../config/parse-pipeline-config.js';
import { runPipeline } from './run-pipeline.js';

let directory: string;
const PIPELINE_YAML = `# A pipeline file as a user writes it: paths relative to this file
source:
  plugin: csv
  options: { path: data/people.csv }
transforms:
  - filter: "country == 'DE'"
split:
  key: id
  ratios: { train: 0.5, test: 0.5 }
sink:
  plugin: tfrecord
  options: { directory: out, shards: 1 }
`;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-run-file-'));
  await mkdir(join(directory, 'project', 'data'), { recursive: true });
  await writeFile(join(directory, 'project', 'data', 'people.csv'), peopleCsv(80));
  await writeFile(join(directory, 'project', 'pipeline.yaml'), PIPELINE_YAML);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function countries(file: string): Promise<string[]> {
  const seen: string[] = [];
  for await (const record of readExamples(file)) {
    seen.push(new TextDecoder().decode((record.features.country!.value as Uint8Array[])[0]));
  }
  return seen;
}

describe('runPipeline from code, without the CLI', () => {
  it('runs a YAML pipeline file named by its path, resolving its paths against the file', async () => {
    const result = await runPipeline('project/pipeline.yaml', { cwd: directory });
    const out = join(directory, 'project', 'out');
    expect(result.directory).toBe(out);
    expect(result.summary.recordsWritten).toBe(20);
    expect(result.splits.map((split) => split.name).sort()).toEqual(['test', 'train']);
    const names = (await readdir(out)).sort();
    expect(names).toEqual([
      'reader_spec.py',
      'test-00000-of-00001.tfrecord',
      'train-00000-of-00001.tfrecord',
    ]);
    const rows = [
      ...(await countries(join(out, 'train-00000-of-00001.tfrecord'))),
      ...(await countries(join(out, 'test-00000-of-00001.tfrecord'))),
    ];
    expect(rows).toEqual(Array.from({ length: 20 }, () => 'DE'));
    expect(await readFile(join(out, 'reader_spec.py'), 'utf8')).toContain(
      '"country": tf.io.FixedLenFeature([], tf.string)',
    );
  });

  it('runs a config object with paths relative to cwd, and a pipeline loaded beforehand', async () => {
    const config = await parsePipelineConfig(
      JSON.stringify({
        source: { plugin: 'csv', options: { path: 'project/data/people.csv' } },
        transforms: [{ take: 7 }],
        sink: { plugin: 'tfrecord', options: { path: 'seven.tfrecord' } },
      }),
    );
    const fromConfig = await runPipeline(config, { cwd: directory });
    expect(fromConfig.summary.recordsWritten).toBe(7);
    expect(await countries(join(directory, 'seven.tfrecord'))).toHaveLength(7);

    const loaded = await loadPipelineFile('project/pipeline.yaml', directory);
    const again = await runPipeline(loaded, { overwrite: true });
    expect(again.summary.recordsWritten).toBe(20);
  });

  it('reports a missing pipeline file as INPUT_NOT_FOUND naming the file', async () => {
    const error = await runPipeline('project/nope.yaml', { cwd: directory }).catch(
      (caught: unknown) => caught,
    );
    expect(TfpipeError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INPUT_NOT_FOUND', position: { file: 'project/nope.yaml' } });
  });
});

describe('parsePipelineConfig', () => {
  it('parses YAML when told or when the file name says so, and JSON otherwise', async () => {
    const yaml = 'source: { plugin: csv }\nsink: { plugin: tfrecord }\n';
    const expected = { source: { plugin: 'csv' }, sink: { plugin: 'tfrecord' } };
    expect(await parsePipelineConfig(yaml, { format: 'yaml' })).toEqual(expected);
    expect(await parsePipelineConfig(yaml, { file: 'p.yml' })).toEqual(expected);
    await expect(parsePipelineConfig(yaml)).rejects.toMatchObject({
      code: 'CONFIG_PARSE',
      position: { file: 'pipeline.json' },
    });
  });

  it('refuses unknown keys as CONFIG_SCHEMA naming the key and the file', async () => {
    await expect(
      parsePipelineConfig('{"source": {"plugin": "csv"}, "sink": {"plugin": "tfrecord"}, "shufle": {}}', {
        file: 'mine.json',
      }),
    ).rejects.toMatchObject({
      code: 'CONFIG_SCHEMA',
      message: expect.stringContaining('shufle'),
      position: { file: 'mine.json' },
    });
  });
});
