/* eslint-disable @typescript-eslint/no-explicit-any -- rows are compared as plain objects */
// Every file of apache/parquet-testing (test-support/corpus/parquet): readable ones match hyparquet's
// own rows and the *_expect.csv files; the others fail with a TfpipeError naming file and column.
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { TfpipeError } from '@tfpipe/core';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, test } from 'vitest';
import { compareRow } from './__fixtures__/compare-rows.js';
import { parquetSchema } from './node/parquet-schema.js';
import { collectRows } from './__fixtures__/collect-rows.js';
import { PARQUET_CORPUS } from '../../../test-support/corpus.js';

const corpus = PARQUET_CORPUS;
const files = [
  ...readdirSync(corpus).filter((name) => name.endsWith('.parquet')),
  ...readdirSync(path.join(corpus, 'geospatial')).map((name) => `geospatial/${name}`),
].sort();

/** Files hyparquet itself cannot decode: the data fails, named by row group and column. */
const CORRUPT: Record<string, { code: string; field: string }> = {
  'datapage_v2_empty_datapage.snappy.parquet': { code: 'PARQUET_FORMAT', field: 'value' },
  'nation.dict-malformed.parquet': { code: 'PARQUET_FORMAT', field: 'name' },
};
/** Files with a column that has no feature form by default (MAP, LIST<LIST>, LIST<STRUCT>). */
const UNSUPPORTED_COLUMN: Record<string, string> = {
  'incorrect_map_schema.parquet': 'my_map',
  'large_string_map.brotli.parquet': 'arr',
  'map_no_value.parquet': 'my_map',
  'nested_lists.snappy.parquet': 'a',
  'nested_maps.snappy.parquet': 'a',
  'nonnullable.impala.parquet': 'int_array_array',
  'nullable.impala.parquet': 'int_array_Array',
  'old_list_structure.parquet': 'a',
  'repeated_no_annotation.parquet': 'phoneNumbers',
};
/** Files with a null element inside a list: that row fails (or is skipped), the others convert. */
const NULL_IN_LIST: Record<string, { first: number; rows: number }> = {
  'list_columns.parquet': { first: 1, rows: 2 },
};

async function hyparquetRows(file: string, columns?: string[]): Promise<Record<string, any>[]> {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return parquetReadObjects({ file: buffer, compressors, ...(columns === undefined ? {} : { columns }) });
}

test('the corpus holds the 75 files of apache/parquet-testing', () => {
  expect(files).toHaveLength(75);
});

describe.each(files)('%s', (name) => {
  const file = path.join(corpus, name);

  if (name in CORRUPT) {
    test('fails with a TfpipeError naming file, row group and column', async () => {
      const error = await rejectionOf(collectRows({ path: file }));
      expect(error.code).toBe(CORRUPT[name]!.code);
      expect(error.position).toMatchObject({ file, rowGroup: 0, field: CORRUPT[name]!.field });
    });
    return;
  }

  if (name in UNSUPPORTED_COLUMN) {
    test('fails before any row with PARQUET_UNSUPPORTED naming the column; the other columns convert', async () => {
      const error = await rejectionOf(collectRows({ path: file }));
      expect(error.code).toBe('PARQUET_UNSUPPORTED');
      expect(error.position).toMatchObject({ file, field: UNSUPPORTED_COLUMN[name] });
      if (name.startsWith('large_string_map')) return; // its only column is the >2 GB map
      const schema = await parquetSchema(file);
      const columns = [...new Set(schema.features.map((feature) => feature.column))];
      if (columns.length === 0) return;
      let skipped = 0;
      const ours = await collectRows({ path: file, columns, onError: 'skip', onSkip: () => skipped++ });
      const theirs = await hyparquetRows(file, columns);
      expect(ours.length + skipped).toBe(theirs.length);
      for (const row of ours) {
        const position = (row as any)[Symbol.for('tfpipe.position')];
        compareRow(schema.features, row, theirs[position.row]!, `row ${position.row}`);
      }
    });
    return;
  }

  test("converts, and every value matches hyparquet's own rows", async () => {
    const schema = await parquetSchema(file);
    const nullRows = NULL_IN_LIST[name];
    if (nullRows !== undefined) {
      const error = await rejectionOf(collectRows({ path: file }));
      expect(error.position).toMatchObject({
        file,
        rowGroup: 0,
        row: nullRows.first,
        recordIndex: nullRows.first,
      });
    }
    const skipped: TfpipeError[] = [];
    const ours = await collectRows({ path: file, onError: 'skip', onSkip: (error) => skipped.push(error) });
    const theirs = await hyparquetRows(file);
    expect(ours.length + skipped.length).toBe(theirs.length);
    expect(skipped).toHaveLength(nullRows?.rows ?? 0);
    for (const row of ours) {
      const position = (row as any)[Symbol.for('tfpipe.position')];
      expect(position.file).toBe(file);
      compareRow(schema.features, row, theirs[position.row]!, `row ${position.row}`);
    }
    // alltypes_tiny_pages(_plain) hold 7,300 rows in thousands of pages: slow on a loaded 2-core machine.
  }, 120_000);
});

test('large_string_map.brotli.parquet under nested: parallel is refused before decoding 2 GB', async () => {
  const file = path.join(corpus, 'large_string_map.brotli.parquet');
  const error = await rejectionOf(collectRows({ path: file, nested: 'parallel' }));
  expect(error.code).toBe('PARQUET_UNSUPPORTED');
  expect(error.position).toMatchObject({ file, rowGroup: 0, field: 'arr.key_value.key' });
});

test('incorrect_map_schema.parquet under nested: parallel yields aligned key and value lists', async () => {
  const rows = await collectRows({
    path: path.join(corpus, 'incorrect_map_schema.parquet'),
    nested: 'parallel',
  });
  const decoder = new TextDecoder();
  expect(rows).toHaveLength(1);
  expect(rows[0]!['my_map/key'].map((bytes: Uint8Array) => decoder.decode(bytes))).toEqual([
    'parent',
    'name',
  ]);
  expect(rows[0]!['my_map/value'].map((bytes: Uint8Array) => decoder.decode(bytes))).toEqual([
    'another',
    'report',
  ]);
});

function parseCsv(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  for (const line of text.split('\n').filter((item) => item !== '')) {
    const cells: (string | null)[] = [];
    let index = 0;
    while (index <= line.length) {
      if (line[index] === '"') {
        let value = '';
        index++;
        for (;;) {
          const close = line.indexOf('"', index);
          value += line.slice(index, close);
          index = close + 1;
          if (line[index] === '"') {
            value += '"';
            index++;
          } else break;
        }
        cells.push(value);
        index++;
      } else {
        const comma = line.indexOf(',', index);
        const end = comma < 0 ? line.length : comma;
        const raw = line.slice(index, end);
        cells.push(raw === '' ? null : raw);
        index = end + 1;
      }
    }
    rows.push(cells);
  }
  return rows;
}

test.each([
  'delta_binary_packed',
  'delta_byte_array',
  'delta_encoding_optional_column',
  'delta_encoding_required_column',
])('%s.parquet matches %s_expect.csv value by value', async (name) => {
  const [, ...expected] = parseCsv(readFileSync(path.join(corpus, `${name}_expect.csv`), 'utf8'));
  const schema = await parquetSchema(path.join(corpus, `${name}.parquet`));
  const rows = await collectRows({ path: path.join(corpus, `${name}.parquet`) });
  expect(rows).toHaveLength(expected.length);
  const decoder = new TextDecoder();
  rows.forEach((row, rowIndex) => {
    schema.features.forEach((feature, column) => {
      const cell = expected[rowIndex]![column];
      const value = row[feature.name];
      const where = `row ${rowIndex} ${feature.name}`;
      if (cell === null || cell === undefined) expect(value, where).toBeNull();
      else if (feature.kind === 'int64') {
        expect(typeof value, where).toBe(feature.parquetType === 'INT32' ? 'number' : 'bigint');
        expect(BigInt(value), where).toBe(BigInt(cell));
      } else expect(decoder.decode(value), where).toBe(cell);
    });
  });
});
