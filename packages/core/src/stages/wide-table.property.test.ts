import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { encodeExample } from '../codec/encode-example.js';
import { collect, fromArray } from '../testing/index.js';
import { expectedFeatures, protobufjsFeatures, randomTable } from '../testing/index.js';
import type { Table, TableCell } from '../testing/index.js';
import { buildExamples } from './build-examples.js';
import type { ExampleSpec } from './spec/example-spec.js';

// Widths across the whole range, the edges of the generated writer (256 features) and of the
// scalar slots included, mixed kinds, as row objects. RELIABILITY_FULL=1 runs 10x more cases.
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 21);
const EDGES = [0, 1, 255, 256, 257, 511, 512, 1024, 4999, 5000];
const RANDOM_RUNS = FULL ? 60 : 6;

/** A cell as a row object may hold it: int64s as numbers, bigints or text; bytes as text or bytes. */
function rowCell(cell: TableCell, variant: number): unknown {
  if (cell === null) return variant % 2 === 0 ? undefined : null;
  if (Array.isArray(cell))
    return cell.map((value: unknown, index) => rowCell(value as TableCell, variant + index));
  if (typeof cell === 'bigint') {
    const safe = cell >= BigInt(Number.MIN_SAFE_INTEGER) && cell <= BigInt(Number.MAX_SAFE_INTEGER);
    return variant % 3 === 0 && safe ? Number(cell) : variant % 3 === 1 ? String(cell) : cell;
  }
  if (typeof cell === 'string' && variant % 4 === 0) return new TextEncoder().encode(cell);
  return cell;
}

function rowObjects(table: Table): Record<string, unknown>[] {
  return table.rows.map((row, rowIndex) => {
    const object: Record<string, unknown> = {};
    for (const [index, column] of table.columns.entries()) {
      object[column.name] = rowCell(row[index]!, rowIndex + index);
    }
    return object;
  });
}

describe('row objects of 0 to 5,000 columns of every kind', () => {
  test(`come out of buildExamples as protobufjs decodes them, value by value (seed ${SEED})`, async () => {
    const width = fc.oneof(fc.constantFrom(...EDGES), fc.integer({ min: 0, max: 5000 }));
    await fc.assert(
      fc.asyncProperty(width, fc.integer({ min: 1, max: 3 }), fc.integer(), async (columns, rows, seed) => {
        const table = randomTable({ columns, rows, seed });
        const spec: ExampleSpec<object> = {};
        for (const column of table.columns) (spec as Record<string, unknown>)[column.name] = column.kind;
        const examples = await collect(fromArray(rowObjects(table)).pipeThrough(buildExamples(spec)));
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
