/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- rows are compared as plain objects */
// Files written by the tests with two independent writers: parquetjs-lite (format v1 footer) and
// hyparquet-writer (format v2 footer), read back value by value.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';
import { collectRows } from './__fixtures__/collect-rows.js';

const parquetjs = createRequire(import.meta.url)('parquetjs-lite');
const decoder = new TextDecoder();
let directory: string;
let v1File: string;
let v2File: string;

const text = (value: Uint8Array | null): string | null => (value === null ? null : decoder.decode(value));

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-'));
  v1File = path.join(directory, 'v1.parquet');
  const schema = new parquetjs.ParquetSchema({
    id: { type: 'INT64' },
    name: { type: 'UTF8', optional: true },
    score: { type: 'DOUBLE' },
    ratio: { type: 'FLOAT', optional: true },
    flag: { type: 'BOOLEAN' },
    day: { type: 'DATE' },
    at: { type: 'TIMESTAMP_MILLIS' },
    small: { type: 'UINT_8' },
    tags: { type: 'UTF8', repeated: true },
    meta: { type: 'JSON', optional: true },
    address: { fields: { city: { type: 'UTF8' }, zip: { type: 'INT32', optional: true } } },
  });
  const writer = await parquetjs.ParquetWriter.openFile(schema, v1File, { rowGroupSize: 2 });
  await writer.appendRow({
    id: 1,
    name: 'ada',
    score: 0.1,
    ratio: 1.5,
    flag: true,
    day: new Date(Date.UTC(2024, 0, 2)),
    at: new Date(1_700_000_000_123),
    small: 255,
    tags: ['a', 'b'],
    meta: { k: [1, 2] },
    address: { city: 'Paris', zip: 75001 },
  });
  await writer.appendRow({
    id: -2,
    score: -3.25,
    flag: false,
    day: new Date(0),
    at: new Date(-1),
    small: 0,
    tags: [],
    address: { city: 'Oslo' },
  });
  await writer.appendRow({
    id: 9_007_199_254_740_991,
    name: '',
    score: 1e300,
    flag: true,
    day: new Date(Date.UTC(1969, 11, 31)),
    at: new Date(0),
    small: 7,
    tags: ['x'],
    address: { city: '' },
  });
  await writer.close();

  v2File = path.join(directory, 'v2.parquet');
  parquetWriteFile({
    filename: v2File,
    rowGroupSize: 2,
    columnData: [
      { name: 'big', data: [2n ** 62n + 1n, -(2n ** 63n), 9_007_199_254_740_993n] },
      { name: 'maybe', data: [null, 5n, null] },
      { name: 'price', data: [12345n, -5n, null] },
      { name: 'wide', data: [123456789012345678901234567n, -1n, 0n] },
      { name: 'nanos', data: [1_700_000_000_123_456_789n, -1n, 0n] },
      { name: 'micros', data: [1_700_000_000_123_456n, -1n, 0n] },
      { name: 'day', data: [19_723, -1, 0] },
      { name: 'half', data: [1.5, -2, null] },
      {
        name: 'id',
        data: ['00112233-4455-6677-8899-aabbccddeeff', null, '00000000-0000-0000-0000-000000000000'],
      },
      { name: 'ints', data: [[1, 2, 3], [], null] },
      { name: 'point', data: [{ x: 1.25, label: 'a' }, null, { x: -1, label: null }] },
    ],
    schema: [
      { name: 'root', num_children: 11 },
      { name: 'big', type: 'INT64', repetition_type: 'REQUIRED' },
      { name: 'maybe', type: 'INT64', repetition_type: 'OPTIONAL' },
      {
        name: 'price',
        type: 'INT64',
        repetition_type: 'OPTIONAL',
        converted_type: 'DECIMAL',
        scale: 2,
        precision: 18,
      },
      {
        name: 'wide',
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 16,
        repetition_type: 'REQUIRED',
        converted_type: 'DECIMAL',
        scale: 4,
        precision: 38,
        logical_type: { type: 'DECIMAL', scale: 4, precision: 38 },
      },
      {
        name: 'nanos',
        type: 'INT64',
        repetition_type: 'REQUIRED',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' },
      },
      { name: 'micros', type: 'INT64', repetition_type: 'REQUIRED', converted_type: 'TIMESTAMP_MICROS' },
      { name: 'day', type: 'INT32', repetition_type: 'REQUIRED', converted_type: 'DATE' },
      {
        name: 'half',
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 2,
        repetition_type: 'OPTIONAL',
        logical_type: { type: 'FLOAT16' },
      },
      {
        name: 'id',
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 16,
        repetition_type: 'OPTIONAL',
        logical_type: { type: 'UUID' },
      },
      { name: 'ints', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'INT32', repetition_type: 'REQUIRED' },
      { name: 'point', repetition_type: 'OPTIONAL', num_children: 2 },
      { name: 'x', type: 'DOUBLE', repetition_type: 'REQUIRED' },
      { name: 'label', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL', converted_type: 'UTF8' },
    ],
  });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

test('a parquetjs-lite file (format v1 footer) reads back value by value', async () => {
  const schema = await parquetSchema(v1File);
  expect(schema.formatVersion).toBe(1);
  expect(schema.rowGroups).toBe(2);
  const rows = await collectRows({ path: v1File });
  expect(rows.map((row) => row.id)).toEqual([1n, -2n, 9_007_199_254_740_991n]);
  expect(rows.map((row) => text(row.name))).toEqual(['ada', null, '']);
  expect(rows.map((row) => row.score)).toEqual([0.1, -3.25, 1e300]);
  expect(rows.map((row) => row.ratio)).toEqual([1.5, null, null]);
  expect(rows.map((row) => row.flag)).toEqual([1n, 0n, 1n]);
  expect(rows.map((row) => row.day)).toEqual([19_724, 0, -1]);
  expect(rows.map((row) => row.at)).toEqual([1_700_000_000_123n, -1n, 0n]);
  expect(rows.map((row) => row.small)).toEqual([255, 0, 7]);
  expect(rows.map((row) => row.tags.map(text))).toEqual([['a', 'b'], [], ['x']]);
  expect(JSON.parse(text(rows[0]!.meta)!)).toEqual({ k: [1, 2] });
  expect(rows[1]!.meta).toBeNull();
  expect(rows.map((row) => text(row['address/city']))).toEqual(['Paris', 'Oslo', '']);
  expect(rows.map((row) => row['address/zip'])).toEqual([75001, null, null]);
  const kinds = Object.fromEntries(
    schema.features.map((feature) => [feature.name, `${feature.kind}${feature.list ? '[]' : ''}`]),
  );
  expect(kinds).toEqual({
    id: 'int64',
    name: 'bytes',
    score: 'float',
    ratio: 'float',
    flag: 'int64',
    day: 'int64',
    at: 'int64',
    small: 'int64',
    tags: 'bytes[]',
    meta: 'bytes',
    'address/city': 'bytes',
    'address/zip': 'int64',
  });
});

test('a hyparquet-writer file (format v2 footer) reads back exactly, int64 beyond 2^53 included', async () => {
  const schema = await parquetSchema(v2File);
  expect(schema.formatVersion).toBe(2);
  const rows = await collectRows({ path: v2File });
  expect(rows.map((row) => row.big)).toEqual([2n ** 62n + 1n, -(2n ** 63n), 9_007_199_254_740_993n]);
  expect(rows.map((row) => row.maybe)).toEqual([null, 5n, null]);
  expect(rows.map((row) => row.price)).toEqual([123.45, -0.05, null]);
  expect(rows[0]!.wide).toBe(Number('12345678901234567890123.4567'));
  expect(rows.map((row) => row.nanos)).toEqual([1_700_000_000_123_456_789n, -1n, 0n]);
  expect(rows.map((row) => row.micros)).toEqual([1_700_000_000_123_456n, -1n, 0n]);
  expect(rows.map((row) => row.day)).toEqual([19_723, -1, 0]);
  expect(rows.map((row) => row.half)).toEqual([1.5, -2, null]);
  expect(Array.from(rows[0]!.id as Uint8Array)).toEqual([
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
  ]);
  expect(rows[1]!.id).toBeNull();
  expect(rows.map((row) => row.ints)).toEqual([[1, 2, 3], [], null]);
  expect(rows.map((row) => row['point/x'])).toEqual([1.25, null, -1]);
  expect(rows.map((row) => text(row['point/label']))).toEqual(['a', null, null]);
  const units = Object.fromEntries(
    schema.features
      .filter((feature) => feature.unit !== undefined)
      .map((feature) => [feature.name, feature.unit]),
  );
  expect(units).toEqual({ nanos: 'ns', micros: 'us', day: 'days' });
});

test("decimal: 'text' gives the exact decimal text as bytes", async () => {
  const rows = await collectRows({ path: v2File, columns: ['price', 'wide'], decimal: 'text' });
  expect(rows.map((row) => text(row.price))).toEqual(['123.45', '-0.05', null]);
  expect(rows.map((row) => text(row.wide))).toEqual(['12345678901234567890123.4567', '-0.0001', '0.0000']);
});

test('timestampUnit converts TIMESTAMP values, flooring to a coarser unit', async () => {
  const rows = await collectRows({ path: v2File, columns: ['nanos', 'micros', 'day'], timestampUnit: 'ms' });
  expect(rows.map((row) => row.nanos)).toEqual([1_700_000_000_123n, -1n, 0n]);
  expect(rows.map((row) => row.micros)).toEqual([1_700_000_000_123n, -1n, 0n]);
  expect(rows.map((row) => row.day)).toEqual([19_723, -1, 0]);
  const up = await collectRows({ path: v2File, columns: ['micros'], timestampUnit: 'ns' });
  expect(up.map((row) => row.micros)).toEqual([1_700_000_000_123_456_000n, -1000n, 0n]);
});

test('separator names struct fields', async () => {
  const rows = await collectRows({ path: v2File, columns: ['point'], separator: '.' });
  expect(Object.keys(rows[0]!)).toEqual(['point.x', 'point.label']);
});

test('a file written in one piece matches the bytes read with a Blob', async () => {
  const bytes = await readFile(v2File);
  const rows: Record<string, any>[] = [];
  for await (const row of parquetSource({ file: new Blob([bytes]), name: 'blob.parquet', columns: ['big'] }))
    rows.push(row);
  expect(rows.map((row) => row.big)).toEqual([2n ** 62n + 1n, -(2n ** 63n), 9_007_199_254_740_993n]);
});
