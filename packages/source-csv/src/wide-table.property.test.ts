import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { TfpipeError, encodeExample } from '@tfpipe/core';
import { collect, expectedFeatures, protobufjsFeatures, randomTable } from '@tfpipe/core/testing';
import type { Table, TableValue } from '@tfpipe/core/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { csvToExamples } from './csv-features.js';
import type { CsvSchema } from './csv-schema.js';

// Widths across the whole range, the 256-feature edges included, mixed kinds, through a CSV file on
// disk. RELIABILITY_FULL=1 runs 10x more cases.
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 21);
const EDGES = [0, 1, 255, 256, 257, 511, 512, 1024, 4999, 5000];
const RANDOM_RUNS = FULL ? 60 : 6;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-wide-csv-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Cell text the float rules read back as exactly `value` (String() drops the sign of -0). */
function floatText(value: number): string {
  if (Object.is(value, -0)) return '-0';
  if (Number.isNaN(value)) return 'nan';
  return value === Infinity ? 'inf' : value === -Infinity ? '-inf' : String(value);
}

const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

function csvText(table: Table): string {
  const lines = [table.columns.map((column) => quoted(column.name)).join(',')];
  for (const row of table.rows) {
    const cells = table.columns.map((column, index) => {
      const cell = row[index];
      if (cell === null || cell === undefined) return '';
      const values: readonly TableValue[] = Array.isArray(cell) ? cell : [cell as TableValue];
      const text = values
        .map((value) => (column.kind === 'float' ? floatText(value as number) : String(value)))
        .join('|');
      return column.kind === 'bytes' ? quoted(text) : text;
    });
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

function csvSchema(table: Table): CsvSchema {
  const columns: Record<string, CsvSchema['columns'][string]> = {};
  for (const column of table.columns) {
    columns[column.name] = { kind: column.kind, missing: 'omit', ...(column.list ? { split: '|' } : {}) };
  }
  return { format: 'tfpipe-csv-schema', version: 1, columns };
}

describe('CSV files of 0 to 5,000 columns of every kind', () => {
  test(`come out of csvToExamples as protobufjs decodes them, value by value (seed ${SEED})`, async () => {
    const width = fc.oneof(fc.constantFrom(...EDGES), fc.integer({ min: 0, max: 5000 }));
    await fc.assert(
      fc.asyncProperty(width, fc.integer({ min: 1, max: 3 }), fc.integer(), async (columns, rows, seed) => {
        const table = randomTable({ columns, rows, seed });
        const file = path.join(directory, `${columns}-${seed}.csv`);
        await writeFile(file, csvText(table));
        const read = collect(csvToExamples({ path: file, schema: csvSchema(table) }));
        if (columns === 0) {
          // No columns is blank lines, which CSV skips: an empty file, said as such.
          const error = await read.then(
            () => undefined,
            (reason: unknown) => reason,
          );
          expect(TfpipeError.is(error) && error.code).toBe('CSV_EMPTY');
          return;
        }
        const examples = await read;
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
  });
});
