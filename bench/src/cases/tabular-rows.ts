import type { ExampleSpec } from '@tfpipe/core';
import { random } from '../harness.js';

/** One tabular row: 10 integer columns, 8 float columns and 2 short strings, as an app holds them. */
export type TabularRow = Record<string, number | string>;

export const INT_COLUMNS = Array.from({ length: 10 }, (_, index) => `int_${index}`);
export const FLOAT_COLUMNS = Array.from({ length: 8 }, (_, index) => `float_${index}`);
export const STRING_COLUMNS = ['city', 'category'];

/** The buildExamples spec of a tabular row. */
export const TABULAR_SPEC: ExampleSpec = Object.fromEntries([
  ...INT_COLUMNS.map((name) => [name, 'int64'] as const),
  ...FLOAT_COLUMNS.map((name) => [name, 'float'] as const),
  ...STRING_COLUMNS.map((name) => [name, 'bytes'] as const),
]);

const CITIES = ['Amsterdam', 'Berlin', 'Chicago', 'Delhi', 'Espoo', 'Fukuoka', 'Lagos', 'Lima'];

/** `count` deterministic rows: small and large integers, floats, short strings. */
export function tabularRows(count: number, seed = 1): TabularRow[] {
  const next = random(seed);
  const rows: TabularRow[] = [];
  for (let index = 0; index < count; index++) {
    const row: TabularRow = {};
    row.int_0 = index;
    row.int_1 = Math.floor(next() * 100);
    row.int_2 = Math.floor(next() * 10_000);
    row.int_3 = Math.floor(next() * 1_000_000) - 500_000;
    row.int_4 = Math.floor(next() * 2 ** 40);
    row.int_5 = Math.floor(next() * 2);
    row.int_6 = Math.floor(next() * 365);
    row.int_7 = 1_700_000_000 + Math.floor(next() * 10_000_000);
    row.int_8 = Math.floor(next() * 50);
    row.int_9 = Math.floor(next() * 1000);
    for (const name of FLOAT_COLUMNS) row[name] = next() * 1000 - 500;
    row.city = CITIES[Math.floor(next() * CITIES.length)]!;
    row.category = `cat_${Math.floor(next() * 500)}`;
    rows.push(row);
  }
  return rows;
}

/** A source that hands out `rows` in slices of `batchSize` (batches), pulled lazily. */
export function batchSource<T>(rows: readonly T[], batchSize: number): ReadableStream<T[]> {
  let offset = 0;
  return new ReadableStream<T[]>(
    {
      pull(controller) {
        if (offset >= rows.length) controller.close();
        else controller.enqueue(rows.slice(offset, (offset += batchSize)));
      },
    },
    { highWaterMark: 1 },
  );
}

/** A source of one row per chunk, pulled lazily. */
export function rowSource<T>(rows: readonly T[]): ReadableStream<T> {
  let offset = 0;
  return new ReadableStream<T>(
    {
      pull(controller) {
        if (offset >= rows.length) controller.close();
        else controller.enqueue(rows[offset++]);
      },
    },
    { highWaterMark: 1 },
  );
}
