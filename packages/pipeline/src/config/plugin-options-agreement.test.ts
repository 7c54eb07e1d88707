import type { TfpipeError } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { csvFeatures, csvSource } from '@tfpipe/source-csv';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from './load-pipeline.js';
import { parsePipelineConfig } from './parse-pipeline-config.js';

/** The error a factory throws at once for its options. */
const thrownBy = (create: () => unknown): Promise<TfpipeError> => rejectionOf(Promise.resolve().then(create));

/** The error loading a pipeline file whose CSV source has `options` gives. */
async function configError(options: Record<string, unknown>): Promise<TfpipeError> {
  const text = JSON.stringify({
    source: { plugin: 'csv', options },
    sink: { plugin: 'tfrecord', options: { directory: 'out' } },
  });
  const config = await parsePipelineConfig(text, { file: 'pipeline.json' });
  return rejectionOf(loadPipeline(config, { baseDirectory: '/', file: 'pipeline.json' }));
}

// Every disagreement found between the hand checks and the zod schema, and their neighbours.
const SOURCE_OPTIONS: readonly Record<string, unknown>[] = [
  { path: 'a.csv', delimiter: '\n' },
  { path: 'a.csv', quote: '\n' },
  { path: 'a.csv', escape: '\r' },
  { path: 'a.csv', delimiter: ',,' },
  { path: 'a.csv', header: ['a', 'a'] },
  { path: 'a.csv', header: ['a', ''] },
  { paths: [''] },
  { paths: [] },
  { path: '' },
  {},
  { path: 'a.csv', paths: ['b.csv'] },
  { path: 'a.csv', delimiter: '"' },
  { path: 'a.csv', delimiter: ';', quote: ';' },
  { path: 'a.csv', comment: '' },
  { path: 'a.csv', maxRecordLength: 0 },
  { path: 'a.csv', maxRecordLength: 1.5 },
  { path: 'a.csv', skipEmptyLines: 'yes' },
  { path: 'a.csv', columns: { drop: [''] } },
  { path: 'a.csv', columns: { rename: { a: '' } } },
  { path: 'a.csv', columns: { only: ['a'] } },
  { path: 'a.csv', delimitr: ';' },
];
const FEATURE_OPTIONS: readonly Record<string, unknown>[] = [
  { path: 'a.csv', inferRows: -1 },
  { path: 'a.csv', inferRows: 1.5 },
  { path: 'a.csv', inferRows: 'some' },
  { path: 'a.csv', missing: 'default' },
  { path: 'a.csv', label: '' },
  { path: 'a.csv', schema: 'int64' },
];

describe('a CSV option is refused alike in code and in a pipeline file', () => {
  it.each(SOURCE_OPTIONS.map((options) => [JSON.stringify(options), options]))(
    'csvSource, csvFeatures and the csv plugin: %s',
    async (_, options) => {
      const inCode = await thrownBy(() => csvSource(options as never));
      const inFeatures = await thrownBy(() => csvFeatures(options as never));
      const inFile = await configError(options);
      expect(inCode.code).toBe('INVALID_OPTION');
      expect(inCode.detail).toMatch(/^csvSource option/);
      expect([inFeatures.code, inFeatures.detail]).toEqual([inCode.code, inCode.detail]);
      expect([inFile.code, inFile.detail, inFile.position.file]).toEqual([
        inCode.code,
        inCode.detail,
        'pipeline.json',
      ]);
    },
  );

  it.each(FEATURE_OPTIONS.map((options) => [JSON.stringify(options), options]))(
    'csvFeatures and the csv plugin: %s',
    async (_, options) => {
      const inCode = await thrownBy(() => csvFeatures(options as never));
      const inFile = await configError(options);
      expect(inCode.code).toBe('INVALID_OPTION');
      expect([inFile.code, inFile.detail]).toEqual([inCode.code, inCode.detail]);
    },
  );
});
