/**
 * The source reads hyparquet's decoded columns and, where every column is a plain leaf, encodes each
 * row's cells straight from them. This pins its output to the path it replaced: hyparquet's own row
 * arrays (`parquetRead` with `rowFormat: 'array'`), mapped into row objects and built by
 * `buildExamples`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildExamples, encodeExample, positionOf, reportOf } from '@tfpipe/core';
import type { Example, TfpipeError } from '@tfpipe/core';
import { collect, fromArray } from '@tfpipe/core/testing';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RowValueError, mapParquetSchema } from './map-parquet-schema.js';
import { parquetExampleSpec } from './parquet-example-spec.js';
import { resolveReadOptions } from './parquet-read-options.js';
import { RAW_PARSERS, readerMetadata } from './read-parquet-footer.js';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';
import { plugin } from './plugin.js';
import { ParquetRowEncoder } from './parquet-row-encoder.js';
import { PARQUET_CORPUS } from '../../../test-support/corpus.js';

let directory: string;
let mixed: string;
const ROWS = 2300;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-columns-'));
  mixed = path.join(directory, 'mixed.parquet');
  const column = <T>(make: (index: number) => T): T[] =>
    Array.from({ length: ROWS }, (_, index) => make(index));
  parquetWriteFile({
    filename: mixed,
    rowGroupSize: 1000,
    codec: 'SNAPPY',
    columnData: [
      { name: 'id', type: 'INT64', data: column((index) => BigInt(index) * 3_000_000_017n) },
      { name: 'small', type: 'INT32', data: column((index) => (index % 11 === 0 ? null : index - 1000)) },
      { name: 'x', type: 'DOUBLE', data: column((index) => (index % 5 === 0 ? null : index / 7)) },
      { name: 'f', type: 'FLOAT', data: column((index) => index * 0.25) },
      { name: 'flag', type: 'BOOLEAN', data: column((index) => (index % 13 === 0 ? null : index % 2 === 0)) },
      { name: 'city', type: 'STRING', data: column((index) => (index % 3 === 0 ? null : `c${index % 17}é`)) },
      { name: 'empty', type: 'STRING', data: column(() => '') },
      {
        name: 'big',
        type: 'INT64',
        data: column((index) => (index % 4 === 0 ? null : -(2n ** 62n) + BigInt(index))),
      },
    ],
  });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const hex = (example: Example): string => Buffer.from(encodeExample(example)).toString('hex');

/**
 * The Examples (hex) and skipped rows of `file` the way the source made them before it read columns:
 * hyparquet's row arrays, each mapped into a new row object by the file's column mappers, then
 * `buildExamples` under `onError: 'skip'`.
 */
async function throughRowArrays(file: string, missing?: 'error') {
  const buffer = await asyncBufferFromFile(file);
  const metadata = await parquetMetadataAsync(buffer);
  const mapped = mapParquetSchema(metadata, resolveReadOptions({ nested: 'parallel' }));
  const columns = [...mapped.mappers.keys()];
  let raw: unknown[][] = [];
  await parquetRead({
    file: buffer,
    metadata: readerMetadata(metadata),
    columns,
    rowFormat: 'array',
    compressors,
    utf8: false,
    parsers: RAW_PARSERS,
    onComplete: (rows: unknown[][]) => {
      raw = rows;
    },
  });
  const rows: Record<string, unknown>[] = [];
  const skipped: number[] = [];
  raw.forEach((values, index) => {
    const row: Record<string, unknown> = {};
    try {
      columns.forEach((name, column) => mapped.mappers.get(name)!(values[column], row));
      rows.push(Object.assign(row, { __row: index }));
    } catch (error) {
      if (!(error instanceof RowValueError)) throw error;
      skipped.push(index);
    }
  });
  const spec = parquetExampleSpec(mapped.schema, missing === undefined ? {} : { missing });
  const errors: number[] = [];
  const examples = await collect(
    fromArray(rows).pipeThrough(
      buildExamples(spec as never, {
        onError: 'skip',
        onSkip: (error: TfpipeError) => errors.push(error.position.row ?? -1),
      }),
    ),
  );
  return { bytes: examples.map(hex), skippedRows: skipped.length + errors.length };
}

/** What the plugin makes of `file` when nothing reads the rows' fields (Examples from the source). */
async function throughPlugin(file: string, options: { decodeRows?: number; missing?: 'error' } = {}) {
  const source = await plugin.create(
    { path: file, nested: 'parallel', ...options },
    { resolvePath: (input: string) => input, onError: 'skip', fieldsRead: false },
  );
  expect(source.output).toBe('examples');
  const examples = (await collect(source.readable as ReadableStream<unknown>)).flat() as Example[];
  const report = reportOf(source.readable)!;
  return { bytes: examples.map(hex), skippedRows: report.skipped, errors: report.skippedErrors ?? [] };
}

describe('the source over decoded columns', () => {
  // [file, a small slice]: slices cut through pages; the tiny-pages file (7,300 rows in pages of a few
  // rows) gets 37-row slices, which still cross its pages, instead of 2,434 slices of 3.
  const corpus: [string, number][] = (
    [
      ['alltypes_plain.parquet', 3],
      ['alltypes_tiny_pages_plain.parquet', 37],
      ['int32_with_null_pages.parquet', 3],
      ['nulls.snappy.parquet', 3],
      ['datapage_v2.snappy.parquet', 3],
      ['list_columns.parquet', 3],
      ['nested_structs.rust.parquet', 3],
    ] as const
  ).map(([name, slice]) => [path.join(PARQUET_CORPUS, name), slice]);

  test('writes the bytes of the row-array path for a mixed-type file with nulls, whatever the slices', async () => {
    const expected = await throughRowArrays(mixed);
    expect(expected.bytes).toHaveLength(ROWS);
    for (const decodeRows of [undefined, 1, 7, 999, 1000, 4096]) {
      const actual = await throughPlugin(mixed, decodeRows === undefined ? {} : { decodeRows });
      expect(actual.skippedRows, `decodeRows ${decodeRows}`).toBe(0);
      expect(actual.bytes, `decodeRows ${decodeRows}`).toEqual(expected.bytes);
    }
  });

  test("refuses the same rows, at the same positions, under missing: 'error'", async () => {
    const expected = await throughRowArrays(mixed, 'error');
    const actual = await throughPlugin(mixed, { missing: 'error', decodeRows: 333 });
    expect(actual.bytes).toEqual(expected.bytes);
    expect(actual.skippedRows).toBe(expected.skippedRows);
    expect(actual.errors[0]).toMatchObject({
      code: 'FEATURE_MISSING',
      position: { file: mixed, rowGroup: 0, row: 0, recordIndex: 0, field: 'small' },
    });
    // Row 3: the first null in spec order is 'city' (rows 1 and 2 have none).
    expect(actual.errors[1]).toMatchObject({ position: { rowGroup: 0, row: 3, field: 'city' } });
  });

  // One test a file, each under its own limit: small slices over a file of many pages are slow on a
  // loaded machine, and each file proves its own shape.
  test.each(corpus)(
    'writes the bytes of the row-array path for corpus file %s (slices of %i)',
    async (file, slice) => {
      const expected = await throughRowArrays(file);
      for (const decodeRows of [undefined, slice]) {
        const actual = await throughPlugin(file, decodeRows === undefined ? {} : { decodeRows });
        expect(actual.bytes, `${file} decodeRows ${decodeRows}`).toEqual(expected.bytes);
        expect(actual.skippedRows, file).toBe(expected.skippedRows);
      }
    },
  );

  test('rows (not Examples) hold the values of hyparquet’s row arrays, with their positions', async () => {
    const spec = parquetExampleSpec(await parquetSchema(mixed));
    const rows = (await collect(parquetSource({ path: mixed, decodeRows: 700 }))) as Record<
      string,
      unknown
    >[];
    expect(rows).toHaveLength(ROWS);
    expect(positionOf(rows[1500]!)).toEqual({ file: mixed, rowGroup: 1, row: 1500, recordIndex: 1500 });
    const built = await collect(fromArray(rows).pipeThrough(buildExamples(spec as never)));
    expect(built.map(hex)).toEqual((await throughRowArrays(mixed)).bytes);
  });

  test('encodes straight from the columns only when every column is a plain leaf', async () => {
    const encoderFor = async (file: string) => {
      const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
      const mapped = mapParquetSchema(metadata, resolveReadOptions({ nested: 'parallel' }));
      const encoder = new ParquetRowEncoder(parquetExampleSpec(mapped.schema));
      return encoder.forColumns([...mapped.mappers.keys()], mapped.leaves);
    };
    expect(await encoderFor(mixed)).toBeTypeOf('function');
    expect(await encoderFor(path.join(PARQUET_CORPUS, 'alltypes_plain.parquet'))).toBeTypeOf('function');
    expect(await encoderFor(path.join(PARQUET_CORPUS, 'list_columns.parquet'))).toBeUndefined();
    expect(await encoderFor(path.join(PARQUET_CORPUS, 'nested_structs.rust.parquet'))).toBeUndefined();
  });
});
