import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { buildExamples, encodeExample } from '@tfpipe/core';
import { collect, expectedFeatures, protobufjsFeatures, randomTable } from '@tfpipe/core/testing';
import type { Table, TableColumn } from '@tfpipe/core/testing';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';
import { parquetExampleSpec } from './parquet-example-spec.js';

// Widths across the whole range, the 256-feature edges included, mixed kinds (lists as Parquet
// LISTs), through a Parquet file on disk. Fewer random widths than CSV: hyparquet finds each column
// by a linear search, so reading 5,000 columns takes seconds: one edge case at the top end (5,000), the
// random widths still span 1 to 5,000. RELIABILITY_FULL=1 runs 30 more.
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 21);
const EDGES = [1, 255, 256, 257, 511, 512, 1024, 5000];
const RANDOM_RUNS = FULL ? 30 : 2;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-wide-parquet-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const PHYSICAL = { int64: 'INT64', float: 'DOUBLE', bytes: 'BYTE_ARRAY' } as const;

/** The schema elements of one nullable column (a LIST of required values for a list column). */
function schemaElements(column: TableColumn): Record<string, unknown>[] {
  const value = {
    type: PHYSICAL[column.kind],
    ...(column.kind === 'bytes' ? { converted_type: 'UTF8' } : {}),
  };
  if (!column.list) return [{ name: column.name, repetition_type: 'OPTIONAL', ...value }];
  return [
    { name: column.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'REQUIRED', ...value },
  ];
}

function writeParquet(table: Table, file: string): void {
  parquetWriteFile({
    filename: file,
    columnData: table.columns.map((column, index) => ({
      name: column.name,
      data: table.rows.map((row) => row[index]),
      // hyparquet-writer's dictionary keys 0 and -0 alike (a Map), so a float column of both would be
      // written as all one of them: plain pages keep each value's sign.
      ...(column.kind === 'float' ? { encoding: 'PLAIN' as const } : {}),
    })),
    schema: [
      { name: 'root', num_children: table.columns.length },
      ...table.columns.flatMap(schemaElements),
    ] as never,
  });
}

describe('Parquet files of 1 to 5,000 columns of every kind', () => {
  // Zero columns is not a Parquet file (a schema root without children); 1 is the narrowest.
  test(`come out of parquetSource and buildExamples as protobufjs decodes them (seed ${SEED})`, async () => {
    const width = fc.oneof(fc.constantFrom(...EDGES), fc.integer({ min: 1, max: 5000 }));
    await fc.assert(
      fc.asyncProperty(width, fc.integer({ min: 1, max: 3 }), fc.integer(), async (columns, rows, seed) => {
        const table = randomTable({ columns, rows, seed });
        const file = path.join(directory, `${columns}-${seed}.parquet`);
        writeParquet(table, file);
        const spec = parquetExampleSpec(await parquetSchema(file));
        const examples = await collect(parquetSource({ path: file }).pipeThrough(buildExamples(spec)));
        expect(examples).toHaveLength(rows);
        for (const [rowIndex, example] of examples.entries()) {
          expect(protobufjsFeatures(encodeExample(example))).toEqual(expectedFeatures(table, rowIndex));
        }
      }),
      {
        seed: SEED,
        numRuns: EDGES.length + RANDOM_RUNS,
        examples: EDGES.map((columns) => [columns, 2, columns]),
      },
    );
  }, 300_000);
});
