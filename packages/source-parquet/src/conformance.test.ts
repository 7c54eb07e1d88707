// The core source conformance suite, run on parquetSource over files written here.
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { testSource } from '@tfpipe/core/testing';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll } from 'vitest';
import { parquetSource } from './node/parquet-source.js';

const directory = mkdtempSync(path.join(os.tmpdir(), 'tfpipe-parquet-conformance-'));
const file = (name: string): string => path.join(directory, name);
afterAll(() => rm(directory, { recursive: true, force: true }));

parquetWriteFile({ filename: file('empty.parquet'), columnData: [{ name: 'id', data: [], type: 'INT64' }] });
parquetWriteFile({
  filename: file('ten.parquet'),
  rowGroupSize: 3,
  columnData: [{ name: 'id', data: Array.from({ length: 10 }, (_, index) => BigInt(index)) }],
});
parquetWriteFile({
  filename: file('large.parquet'),
  rowGroupSize: 500,
  columnData: [{ name: 'id', data: Array.from({ length: 5000 }, (_, index) => BigInt(index)) }],
});
parquetWriteFile({
  filename: file('bad.parquet'),
  columnData: [{ name: 'values', data: [[1, 2], [3, null], [4]] }],
  schema: [
    { name: 'root', num_children: 1 },
    { name: 'values', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' },
  ],
});

testSource<string, Record<string, unknown>>({
  name: 'parquetSource',
  create: (name) => parquetSource({ path: file(name) }),
  fixtures: {
    empty: 'empty.parquet',
    ordered: { input: 'ten.parquet', expectedCount: 10, keyOf: (row) => row.id },
    large: { input: 'large.parquet', rows: 5000 },
    bad: {
      input: 'bad.parquet',
      expectedCode: 'PARQUET_UNSUPPORTED',
      positionKeys: ['file', 'rowGroup', 'row', 'recordIndex', 'field'],
      expectedPosition: { file: file('bad.parquet'), rowGroup: 0, row: 1, recordIndex: 1, field: 'values' },
    },
  },
  // one row group is decoded at a time
  readAhead: 500,
  openHandles: () => readdir('/proc/self/fd').then((fds) => fds.length),
});
