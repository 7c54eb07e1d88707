import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readExamples, plugin as tfrecordPlugin } from '@tfpipe/sink-tfrecord';
import { plugin as csvPlugin } from '@tfpipe/source-csv';
import type { CsvFeatureRow } from '@tfpipe/source-csv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleCsv } from '../../../../test-support/people-csv.js';
import { definePipelineConfig } from '../config/pipeline-config.js';
import { runPipelineConfig } from './run-pipeline-config.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-code-config-'));
  await writeFile(join(directory, 'people.csv'), peopleCsv(200));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const ageOf = (row: CsvFeatureRow): bigint => (row.age?.value as bigint[] | undefined)?.[0] ?? 0n;

describe('runPipelineConfig', () => {
  it('runs a typed config with a code predicate, a derived feature and a seeded sample', async () => {
    const config = definePipelineConfig({
      source: { plugin: csvPlugin, options: { path: 'people.csv' } },
      transforms: [{ filter: (row: CsvFeatureRow) => ageOf(row) >= 30n }, { sample: { count: 25, seed: 9 } }],
      spec: {
        id: 'bytes',
        age: 'int64',
        decade: { kind: 'int64', value: (row: CsvFeatureRow) => ageOf(row) / 10n },
      },
      sink: { plugin: tfrecordPlugin, options: { directory: 'code-out', shards: 1 } },
    });
    const result = await runPipelineConfig(config, { cwd: directory });
    expect(result.summary.recordsWritten).toBe(25);
    expect((await readdir(join(directory, 'code-out'))).sort()).toEqual([
      'data-00000-of-00001.tfrecord',
      'reader_spec.py',
    ]);
    for await (const record of readExamples(join(directory, 'code-out', 'data-00000-of-00001.tfrecord'))) {
      const age = (record.features.age!.value as bigint[])[0]!;
      expect(age).toBeGreaterThanOrEqual(30n);
      expect(record.features.decade!.value).toEqual([age / 10n]);
    }
  });

  it('types plugin options from the plugin schema', () => {
    definePipelineConfig({
      source: { plugin: csvPlugin, options: { path: 'a.csv' } },
      // @ts-expect-error: `shards` must be a number
      sink: { plugin: tfrecordPlugin, options: { directory: 'out', shards: '8' } },
    });
    definePipelineConfig({
      // @ts-expect-error: csv has no option `delimeter`
      source: { plugin: csvPlugin, options: { path: 'a.csv', delimeter: ';' } },
      sink: { plugin: tfrecordPlugin, options: { directory: 'out' } },
    });
  });

  it('checks code configs against the plugin schemas too', async () => {
    await expect(
      runPipelineConfig(
        {
          source: { plugin: 'csv', options: { path: 'people.csv', header: 'yes' } },
          sink: { plugin: 'tfrecord', options: { directory: 'x' } },
        },
        { cwd: directory },
      ),
    ).rejects.toMatchObject({
      // The plugin's own error, as csvSource raises it in code.
      code: 'INVALID_OPTION',
      message: 'csvSource option header: expected true, false or a list of column names, got "yes"',
    });
  });
});
