/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- rows are compared as plain objects */
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { positionOf, reportOf } from '@tfpipe/core';
import { parquetWriteFile } from 'hyparquet-writer';
import { rejectionOf } from '@tfpipe/core/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parquetExampleSpec } from './parquet-example-spec.js';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';
import { collectRows } from './__fixtures__/collect-rows.js';
import { PARQUET_CORPUS } from '../../../test-support/corpus.js';

const corpus = PARQUET_CORPUS;
let directory: string;
let tenRows: string;

function writeTen(file: string, extra: { name: string; data: unknown[] }[] = []): void {
  parquetWriteFile({
    filename: file,
    rowGroupSize: 4,
    columnData: [
      { name: 'n', data: Array.from({ length: 10 }, (_, index) => BigInt(index)) },
      { name: 'label', data: Array.from({ length: 10 }, (_, index) => `row${index}`) },
      ...extra,
    ],
  });
}

const openFileDescriptors = async (): Promise<number> => (await readdir('/proc/self/fd')).length;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-source-'));
  tenRows = path.join(directory, 'ten.parquet');
  writeTen(tenRows);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('positions and ranges', () => {
  test('every row carries file, row group, 0-based row index and recordIndex', async () => {
    const rows = await collectRows({ path: tenRows });
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: 10 }, (_, index) => BigInt(index)));
    expect(rows.map((row) => positionOf(row))).toEqual(
      rows.map((_, index) => ({
        file: tenRows,
        rowGroup: Math.floor(index / 4),
        row: index,
        recordIndex: index,
      })),
    );
    expect(Object.keys(rows[0]!)).toEqual(['n', 'label']);
  });

  test('rowGroups, rowStart/rowEnd and decodeRows select the same rows however sliced', async () => {
    expect((await collectRows({ path: tenRows, rowGroups: [1] })).map((row) => row.n)).toEqual([
      4n,
      5n,
      6n,
      7n,
    ]);
    expect((await collectRows({ path: tenRows, rowStart: 3, rowEnd: 9 })).map((row) => row.n)).toEqual([
      3n,
      4n,
      5n,
      6n,
      7n,
      8n,
    ]);
    const sliced = await collectRows({ path: tenRows, rowStart: 1, decodeRows: 3 });
    expect(sliced.map((row) => positionOf(row)?.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sliced.map((row) => positionOf(row)?.rowGroup)).toEqual([0, 0, 0, 1, 1, 1, 1, 2, 2]);
    expect(
      (await collectRows({ path: tenRows, rowGroups: [0, 2], rowStart: 2, decodeRows: 1 })).map(
        (row) => row.n,
      ),
    ).toEqual([2n, 3n, 8n, 9n]);
  });

  test('columns reads only the named columns', async () => {
    const rows = await collectRows({ path: tenRows, columns: ['label'] });
    expect(Object.keys(rows[0]!)).toEqual(['label']);
  });

  test('an unknown column fails with PARQUET_COLUMN naming file and column', async () => {
    const error = await rejectionOf(collectRows({ path: tenRows, columns: ['n', 'nope'] }));
    expect(error.code).toBe('PARQUET_COLUMN');
    expect(error.position).toEqual({ file: tenRows, field: 'nope' });
  });
});

describe('streaming', () => {
  test('decodes a row group only when the consumer pulls, and cancel closes the file', async () => {
    const before = await openFileDescriptors();
    const stream = parquetSource({ path: tenRows });
    const reader = stream.getReader();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reportOf(stream)?.details?.rowGroups).toBe(0);
    expect((await reader.read()).value?.n).toBe(0n);
    expect(reportOf(stream)?.details?.rowGroups).toBe(1);
    expect(await openFileDescriptors()).toBe(before + 1);
    await reader.cancel();
    expect(await openFileDescriptors()).toBe(before);
  });

  test('an error while decoding closes the file and emits no row of the broken slice', async () => {
    const before = await openFileDescriptors();
    const rows: unknown[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const row of parquetSource({ path: path.join(corpus, 'nation.dict-malformed.parquet') }))
          rows.push(row);
      })(),
    );
    expect(error.code).toBe('PARQUET_FORMAT');
    expect(rows).toHaveLength(0);
    expect(await openFileDescriptors()).toBe(before);
  });

  test('the report holds the mapped schema, records and bytes', async () => {
    const stream = parquetSource({ path: tenRows });
    for await (const _ of stream);
    const report = reportOf(stream)!;
    expect(report.records).toBe(10);
    expect(report.bytes).toBeGreaterThan(0);
    expect(
      (report.details?.schema as any).features.map((feature: any) => [feature.name, feature.kind]),
    ).toEqual([
      ['n', 'int64'],
      ['label', 'bytes'],
    ]);
  });
});

describe('bad input', () => {
  test('a CSV file is not a Parquet file', async () => {
    const file = path.join(directory, 'data.csv');
    await writeFile(file, 'a,b\n1,2\n3,4\n');
    const error = await rejectionOf(collectRows({ path: file }));
    expect(error.code).toBe('PARQUET_FORMAT');
    expect(error.message).toMatch(/not a Parquet file in .*data\.csv: bad magic "a,b\\n" at byte 0/);
  });

  test('a truncated file (footer cut off) fails with PARQUET_FORMAT', async () => {
    const file = path.join(directory, 'truncated.parquet');
    const bytes = await readFile(tenRows);
    await writeFile(file, bytes.subarray(0, bytes.length - 10));
    const error = await rejectionOf(collectRows({ path: file }));
    expect(error.code).toBe('PARQUET_FORMAT');
    expect(error.position.file).toBe(file);
  });

  test('a corrupt footer (right magics, garbage metadata) fails with PARQUET_FORMAT, not a crash', async () => {
    const file = path.join(directory, 'garbage-footer.parquet');
    const bytes = new Uint8Array(await readFile(tenRows));
    const footerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
    bytes.fill(0xff, bytes.length - 8 - footerLength, bytes.length - 8);
    await writeFile(file, bytes);
    const error = await rejectionOf(collectRows({ path: file }));
    expect(error.code).toBe('PARQUET_FORMAT');
  });

  test('a missing path fails with INPUT_NOT_FOUND', async () => {
    const error = await rejectionOf(collectRows({ path: path.join(directory, 'nope.parquet') }));
    expect(error.code).toBe('INPUT_NOT_FOUND');
  });

  test('bad options fail when the factory is called, naming the option', () => {
    expect(() => parquetSource({ path: tenRows, decodeRows: 0 })).toThrow(
      /parquetSource option decodeRows: expected a whole number ≥ 1, got 0/,
    );
    expect(() => parquetSource({ path: tenRows, rowStart: 5, rowEnd: 2 })).toThrow(
      /option rowEnd: expected a row at or after rowStart \(5\), got 2/,
    );
    expect(() => parquetSource({ path: tenRows, nested: 'sequence' as never })).toThrow(
      /option nested: expected "error" or "parallel", got "sequence"/,
    );
    expect(() => parquetSource({ path: tenRows, file: new Blob([]) })).toThrow(
      /parquetSource options: expected exactly one of path, paths, file/,
    );
  });
});

describe('many files', () => {
  test('a Spark output directory reads part files in order, skipping _SUCCESS, .crc and hidden files', async () => {
    const spark = path.join(directory, 'spark');
    await mkdir(path.join(spark, 'k=1'), { recursive: true });
    await copyFile(tenRows, path.join(spark, 'part-00000.snappy.parquet'));
    await copyFile(tenRows, path.join(spark, 'part-00001.snappy.parquet'));
    await copyFile(tenRows, path.join(spark, 'k=1', 'part-00002.snappy.parquet'));
    await writeFile(path.join(spark, '_SUCCESS'), '');
    await writeFile(path.join(spark, '.part-00000.snappy.parquet.crc'), 'crc');
    const rows = await collectRows({ path: spark });
    expect(rows).toHaveLength(30);
    expect([...new Set(rows.map((row) => path.relative(spark, positionOf(row)!.file!)))]).toEqual([
      path.join('k=1', 'part-00002.snappy.parquet'),
      'part-00000.snappy.parquet',
      'part-00001.snappy.parquet',
    ]);
    const globbed = await collectRows({ path: path.join(spark, 'part-*.parquet') });
    expect(globbed).toHaveLength(20);
    expect(await collectRows({ path: path.join(spark, '**/part-*.parquet'), rowGroups: [2] })).toHaveLength(
      6,
    );
  });

  test('a file whose schema differs from the first fails before any row with PARQUET_SCHEMA', async () => {
    const mixed = path.join(directory, 'mixed');
    await mkdir(mixed);
    await copyFile(tenRows, path.join(mixed, 'a.parquet'));
    writeTen(path.join(mixed, 'b.parquet'), [{ name: 'extra', data: Array.from({ length: 10 }, () => 1.5) }]);
    const rows: unknown[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const row of parquetSource({ path: mixed })) rows.push(row);
      })(),
    );
    expect(rows).toHaveLength(0);
    expect(error.code).toBe('PARQUET_SCHEMA');
    expect(error.position).toEqual({ file: path.join(mixed, 'b.parquet'), field: 'extra' });
    expect(await collectRows({ path: mixed, columns: ['n'] })).toHaveLength(20);
  });
});

describe('nested columns', () => {
  test("LIST of STRUCT fails by default and becomes per-field lists with nested: 'parallel'", async () => {
    const file = path.join(directory, 'nested.parquet');
    parquetWriteFile({
      filename: file,
      columnData: [
        {
          name: 'boxes',
          data: [
            [
              { w: 1, tag: 'a' },
              { w: 2, tag: 'b' },
            ],
            [],
            null,
          ],
        },
      ],
      schema: [
        { name: 'root', num_children: 1 },
        { name: 'boxes', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'REQUIRED', num_children: 2 },
        { name: 'w', type: 'INT32', repetition_type: 'REQUIRED' },
        { name: 'tag', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      ],
    });
    const error = await rejectionOf(collectRows({ path: file }));
    expect(error.code).toBe('PARQUET_UNSUPPORTED');
    expect(error.position).toEqual({ file, field: 'boxes' });
    const rows = await collectRows({ path: file, nested: 'parallel' });
    expect(rows.map((row) => row['boxes/w'])).toEqual([[1, 2], [], null]);
    expect(rows[0]!['boxes/tag'].map((bytes: Uint8Array) => new TextDecoder().decode(bytes))).toEqual([
      'a',
      'b',
    ]);
  });
});

test('parquetExampleSpec gives one buildExamples entry per feature, missing by nullability', async () => {
  const schema = await parquetSchema(path.join(corpus, 'nulls.snappy.parquet'));
  expect(parquetExampleSpec(schema)).toEqual({
    'b_struct/b_c_int': { kind: 'int64', field: 'b_struct/b_c_int', missing: 'omit' },
  });
  const required = await parquetSchema(tenRows);
  expect(parquetExampleSpec(required, { features: ['label'] })).toEqual({
    label: { kind: 'bytes', field: 'label', missing: 'error' },
  });
  expect(() => parquetExampleSpec(required, { features: ['nope'] })).toThrow(/nope/);
});
