import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from './load-pipeline.js';
import { parsePipelineConfig } from './parse-pipeline-config.js';
import { pipelineJsonSchema } from './pipeline-json-schema.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(PACKAGE, 'src', '__fixtures__', 'pipelines');
const READMES = ['packages/pipeline/README.md', 'packages/cli/README.md'].map((file) =>
  join(PACKAGE, '..', '..', file),
);

async function committedSchema(): Promise<object> {
  return JSON.parse(await readFile(join(PACKAGE, 'pipeline.schema.json'), 'utf8')) as object;
}

/** An independent validator (ajv, draft-07) compiled from the committed file. */
async function validator() {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  return ajv.compile(await committedSchema());
}

/** The pipeline files in the fixtures, and the JSON / YAML pipelines shown in the READMEs. */
async function pipelineDocuments(): Promise<[string, unknown][]> {
  const documents: [string, unknown][] = [];
  for (const name of await readdir(FIXTURES)) {
    const text = await readFile(join(FIXTURES, name), 'utf8');
    documents.push([name, name.endsWith('.json') ? JSON.parse(text) : parse(text)]);
  }
  for (const readme of READMES) {
    const text = await readFile(readme, 'utf8');
    for (const [, language, block] of text.matchAll(/```(json|yaml)\n([\s\S]*?)```/g)) {
      if (!/^\s*"?source"?:/m.test(block!)) continue;
      documents.push([
        `${readme} (${language} block)`,
        language === 'json' ? JSON.parse(block!) : parse(block!),
      ]);
    }
  }
  return documents;
}

describe('pipeline.schema.json', () => {
  it('is what pipelineJsonSchema() generates (regenerate: pnpm --filter @tfpipe/pipeline schema)', async () => {
    expect(await committedSchema()).toEqual(await pipelineJsonSchema());
  });

  it("accepts the fixtures' and the READMEs' pipeline files, as parsePipelineConfig does", async () => {
    const validate = await validator();
    const documents = await pipelineDocuments();
    expect(documents.length).toBeGreaterThanOrEqual(5);
    for (const [name, document] of documents) {
      expect([name, validate(document), validate.errors ?? []]).toEqual([name, true, []]);
      await expect(parsePipelineConfig(JSON.stringify(document))).resolves.toBeDefined();
    }
  });

  it('refuses what parsePipelineConfig refuses: unknown keys, wrong types, two transforms in one, mixed splits', async () => {
    const validate = await validator();
    const base = { source: { plugin: 'csv' }, sink: { plugin: 'tfrecord' } };
    const wrong: [string, unknown][] = [
      ['an unknown top-level key', { ...base, shufle: { seed: 1 } }],
      ['no sink', { source: { plugin: 'csv' } }],
      ['an unknown key in a plugin reference', { ...base, sink: { plugin: 'tfrecord', option: {} } }],
      ['a feature kind', { ...base, spec: { age: 'int32' } }],
      ['a transform with two operations', { ...base, transforms: [{ take: 1, filter: 'a > 1' }] }],
      ['an empty transform', { ...base, transforms: [{}] }],
      [
        'a sample with count and fraction',
        { ...base, transforms: [{ sample: { count: 1, fraction: 0.5 } }] },
      ],
      ['a negative take', { ...base, transforms: [{ take: -1 }] }],
      ['a split by hash and column', { ...base, split: { key: 'id', ratios: { a: 1 }, column: 'c' } }],
      ['a split by hash without ratios', { ...base, split: { key: 'id' } }],
      ['a shuffle memory in words', { ...base, shuffle: { full: true, memory: 'lots' } }],
      ['a fractional buffer', { ...base, shuffle: { buffer: 2.5 } }],
      ['an onError policy', { ...base, onError: 'ignore' }],
      ['a reader spec format', { ...base, readerSpec: ['torch'] }],
    ];
    for (const [what, document] of wrong) {
      expect([what, validate(document)]).toEqual([what, false]);
      await expect(parsePipelineConfig(JSON.stringify(document)), what).rejects.toMatchObject({
        code: 'CONFIG_SCHEMA',
      });
    }
  });

  it("checks the known plugins' options with the definitions their code checks with, under every name", async () => {
    const validate = await validator();
    const sink = { plugin: 'tfrecord', options: { directory: 'out' } };
    const source = { plugin: 'csv', options: { path: 'a.csv' } };
    const refused: [string, unknown][] = [
      [
        'images labelBase -1',
        { source: { plugin: 'images', options: { folder: 'f', labelBase: -1 } }, sink },
      ],
      [
        'images resize over 16383',
        {
          source: {
            plugin: '@tfpipe/source-images',
            options: { folder: 'f', resize: { width: 16384, height: 1 } },
          },
          sink,
        },
      ],
      ['parquet empty columns', { source: { plugin: 'parquet', options: { path: 'a', columns: [] } }, sink }],
      [
        'parquet unknown option',
        { source: { plugin: 'parquet', options: { path: 'a', colums: ['a'] } }, sink },
      ],
      ['csv delimiter type', { source: { plugin: 'csv', options: { path: 'a.csv', delimiter: 1 } }, sink }],
      [
        'sink bufferBytes',
        { source, sink: { plugin: 'tfrecord', options: { directory: 'o', bufferBytes: 1024 } } },
      ],
      [
        'sink level',
        { source, sink: { plugin: '@tfpipe/sink-tfrecord', options: { directory: 'o', level: 10 } } },
      ],
      ['jsonl unknown option', { source: { plugin: 'jsonl', options: { path: 'a', pth: 'b' } }, sink }],
    ];
    for (const [what, document] of refused) {
      expect([what, validate(document)]).toEqual([what, false]);
      // The plugin itself refuses it when the pipeline is loaded.
      const config = await parsePipelineConfig(JSON.stringify(document), { file: 'p.json' });
      await expect(loadPipeline(config, { baseDirectory: '/', file: 'p.json' }), what).rejects.toMatchObject({
        code: expect.stringMatching(/^(INVALID_OPTION|CONFIG_SCHEMA)$/),
      });
    }
    const accepted = {
      source: {
        plugin: 'images',
        options: { folder: 'f', labelBase: 1, resize: { width: 224, height: 224 } },
      },
      sink: { plugin: 'tfrecord', options: { directory: 'out', shards: 4, compression: 'gzip' } },
    };
    expect(validate(accepted)).toBe(true);
  });
});
