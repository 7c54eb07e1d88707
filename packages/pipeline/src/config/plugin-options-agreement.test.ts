import type { TfpipeError } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { csvFeatures, csvSource } from '@tfpipe/source-csv';
import { imageSource } from '@tfpipe/source-images';
import { parquetSource } from '@tfpipe/source-parquet';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from './load-pipeline.js';
import { parsePipelineConfig } from './parse-pipeline-config.js';

/** The error a factory throws at once for its options. */
const thrownBy = (create: () => unknown): Promise<TfpipeError> => rejectionOf(Promise.resolve().then(create));

/** The error loading a pipeline file whose source (CSV unless said) or sink has `options` gives. */
async function configError(
  options: Record<string, unknown>,
  place: { source?: string; sink?: true } = {},
): Promise<TfpipeError> {
  const text = JSON.stringify({
    source:
      place.sink === true
        ? { plugin: 'csv', options: { path: 'a.csv' } }
        : { plugin: place.source ?? 'csv', options },
    sink: { plugin: 'tfrecord', options: place.sink === true ? options : { directory: 'out' } },
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

/** Each case: refused by the factory in code and by the plugin in a pipeline file, alike. */
function expectAgreement(inCode: TfpipeError, inFile: TfpipeError, stage: string): void {
  expect(inCode.code).toBe('INVALID_OPTION');
  expect(inCode.detail).toMatch(new RegExp(`^${stage} option`));
  expect([inFile.code, inFile.detail, inFile.position.file]).toEqual([
    inCode.code,
    inCode.detail,
    'pipeline.json',
  ]);
}

// The disagreements found between the hand checks and the zod schemas, and their neighbours.
const IMAGE_OPTIONS: readonly Record<string, unknown>[] = [
  { folder: 'f', labelBase: -1 },
  { folder: 'f', labelBase: 1.5 },
  {},
  { folder: 'f', list: 'l.csv' },
  { folder: '' },
  { folder: 'f', images: '' },
  { folder: 'f', classNames: ['a', 'a'] },
  { folder: 'f', classNames: ['a', ''] },
  { folder: 'f', resize: { width: 0, height: 10 } },
  { folder: 'f', resize: { width: 16384, height: 10 } },
  { folder: 'f', resize: { width: 10, height: 10, fit: 'stretch' } },
  { folder: 'f', resize: { width: 10 } },
  { folder: 'f', channels: 'rgba' },
  { folder: 'f', format: 'gif' },
  { folder: 'f', format: 'png', raw: true },
  { folder: 'f', quality: 0 },
  { folder: 'f', quality: 101 },
  { folder: 'f', maxPixels: 0 },
  { folder: 'f', maxFileBytes: 2 ** 31 },
  { folder: 'f', allowEmpty: 'yes' },
  { folder: 'f', exclude: [''] },
  { folder: 'f', verify: 'pixels' },
  { folder: 'f', invalidBoxes: 'clip' },
  { folder: 'f', concurrency: 0 },
  { folder: 'f', keys: { picture: 'x' } },
  { folder: 'f', keys: { encoded: '' } },
  { folder: 'f', keys: { encoded: 'image/format' } },
  { folder: 'f', extensions: 'jpg' },
  { folder: 'f', foldr: 'g' },
];

const PARQUET_OPTIONS: readonly Record<string, unknown>[] = [
  {},
  { path: 'a.parquet', paths: ['b.parquet'] },
  { path: '' },
  { paths: [] },
  { paths: [''] },
  { path: 'a.parquet', columns: [] },
  { path: 'a.parquet', columns: [''] },
  { path: 'a.parquet', rowGroups: [-1] },
  { path: 'a.parquet', rowGroups: 0 },
  { path: 'a.parquet', rowStart: -1 },
  { path: 'a.parquet', rowStart: 5, rowEnd: 2 },
  { path: 'a.parquet', rowEnd: 1.5 },
  { path: 'a.parquet', decodeRows: 0 },
  { path: 'a.parquet', decimal: 'exact' },
  { path: 'a.parquet', timestampUnit: 'h' },
  { path: 'a.parquet', separator: '' },
  { path: 'a.parquet', nested: 'flatten' },
  { path: 'a.parquet', maxColumnChunkBytes: 0 },
  { path: 'a.parquet', maxPageBytes: 0.5 },
  { path: 'a.parquet', colums: ['a'] },
];

const SINK_OPTIONS: readonly Record<string, unknown>[] = [
  {},
  { directory: 'out', path: 'out/a.tfrecord' },
  { path: 'out/a.tfrecord', prefix: 'p' },
  { path: 'out/a.tfrecord', shards: 2 },
  { path: 'out/a.tfrecord', suffix: '.rec' },
  { directory: 'out', shards: 2, maxRecords: 4 },
  { directory: 'out', shards: 0 },
  { directory: 'out', maxBytes: 0 },
  { directory: 'out', prefix: 'a/b' },
  { directory: 'out', prefix: '.hidden' },
  { directory: 'out', prefix: '' },
  { directory: 'out', suffix: 'a/b' },
  { directory: 'out', compression: 'bz2' },
  { path: 'out/a.tfrecord.gz', compression: 'zlib' },
  { directory: 'out', suffix: '.tfrecord.zz', compression: 'gzip' },
  { path: 'out/a.tfrecord', compression: 'gzip', index: true },
  { path: 'out/a.tfrecord.gz', index: true },
  { directory: 'out', level: 10 },
  { directory: 'out', level: -1 },
  { directory: 'out', bufferBytes: 1024 },
  { directory: 'out', fsync: 'no' },
  { path: 'out/a.tfrecord', crcThread: 'yes' },
  { directory: 'out', manifest: 1 },
  { directory: 'out', shard: 2 },
];

describe('an image, Parquet or sink option is refused alike in code and in a pipeline file', () => {
  it.each(IMAGE_OPTIONS.map((options) => [JSON.stringify(options), options]))(
    'imageSource and the images plugin: %s',
    async (_, options) => {
      const inCode = await thrownBy(() => imageSource(options));
      expectAgreement(inCode, await configError(options, { source: 'images' }), 'imageSource');
    },
  );

  it.each(PARQUET_OPTIONS.map((options) => [JSON.stringify(options), options]))(
    'parquetSource and the parquet plugin: %s',
    async (_, options) => {
      const inCode = await thrownBy(() => parquetSource(options as never));
      expectAgreement(inCode, await configError(options, { source: 'parquet' }), 'parquetSource');
    },
  );

  it.each(SINK_OPTIONS.map((options) => [JSON.stringify(options), options]))(
    'tfrecordSink and the tfrecord plugin: %s',
    async (_, options) => {
      const inCode = await thrownBy(() => tfrecordSink(options));
      expectAgreement(inCode, await configError(options, { sink: true }), 'tfrecordSink');
    },
  );
});
