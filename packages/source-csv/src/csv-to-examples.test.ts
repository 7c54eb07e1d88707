import fc from 'fast-check';
import { encodeExample, positionOf, reportOf } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import type { Positioned } from '@tfpipe/core/plugin';
import { collect } from '@tfpipe/core/testing';
import { describe, expect, test } from 'vitest';
import { chunkedStream } from './__fixtures__/test-support.js';
import { csvFeatures, csvToExamples } from './csv-features.js';
import type { CsvColumnSchemaInput, CsvMissing } from './csv-schema.js';

// Seeded and bounded for CI; RELIABILITY_FULL=1 runs 20× more cases.
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 21);
const RUNS = FULL ? 2000 : 100;

/** Cell text that fits an int64 column, including the edges of the range and Python's spellings. */
const intText = fc.oneof(
  fc.constantFrom('0', '-0', '007', '+5', ' 12 ', '1_000', '9007199254740993', '-9223372036854775808'),
  fc.constantFrom('9223372036854775807', '123456789012345', '-123456789012345', '1234567890123456'),
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
);
/** Cell text that fits a float column. */
const floatText = fc.oneof(
  fc.constantFrom('1.5', '.5', '5.', '1e3', '-2.5E-3', 'inf', '-Infinity', 'NaN', '3.4028235e38', '1e-46'),
  fc.double().map(String),
  intText,
);
/** Cell text for bytes columns: anything without the CSV's own quote, delimiter or newlines. */
const anyText = fc.oneof(
  fc.constantFrom('São Paulo', '東京', '😀', 'x|y', '|', 'a'),
  fc.string({ maxLength: 6 }).filter((text) => !/[",\r\n]/.test(text)),
);
const VOCABULARY = ['a', 'b', 'c', '1|2|3'];

/** Text that fits the column (or not, one time in eight), empty one time in six. */
function cellFor(spec: Record<string, unknown>): fc.Arbitrary<string> {
  const one =
    spec.vocabulary !== undefined
      ? fc.constantFrom(...VOCABULARY)
      : spec.boolean === true
        ? fc.constantFrom('true', 'FALSE', '1', '0', ' false ')
        : spec.kind === 'int64'
          ? intText
          : spec.kind === 'float'
            ? floatText
            : anyText;
  const fitting =
    spec.split === undefined || spec.vocabulary !== undefined
      ? one
      : fc.array(one, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('|'));
  return fc.oneof(
    { weight: 10, arbitrary: fitting },
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.oneof(anyText, floatText) },
  );
}

const missing = fc.constantFrom<CsvMissing>('omit', 'empty', 'kindless', 'error', 'default');

/** A column spec of any shape the schema allows, with a default that fits its kind. */
const columnSpec: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    kind: fc.constantFrom<'int64' | 'float' | 'bytes'>('int64', 'float', 'bytes'),
    missing,
    split: fc.option(fc.constant('|'), { nil: undefined }),
    boolean: fc.boolean(),
    vocabulary: fc.boolean(),
  })
  .map(({ kind, missing: policy, split, boolean, vocabulary }) => {
    const spec: Record<string, unknown> = { kind, missing: policy };
    if (split !== undefined) spec.split = split;
    if (kind === 'int64' && boolean) spec.boolean = true;
    else if (kind === 'int64' && vocabulary) spec.vocabulary = VOCABULARY;
    if (policy === 'default') {
      const one =
        spec.vocabulary !== undefined ? 'b' : spec.boolean === true ? 'true' : kind === 'bytes' ? 'n/a' : '7';
      // A list default is one value per element, each converted by the cell rules.
      spec.default =
        split === undefined ? one : [one, kind === 'bytes' ? '東京' : spec.boolean === true ? '0' : one];
    }
    return spec;
  });

/**
 * The `index`th column's name: every other one integer-like and falling, which a JavaScript object
 * would list first and in rising order, so cells must follow the header, not an object's keys.
 */
function columnName(index: number): string {
  return index % 2 === 1 ? String(9 - index) : `c${index}`;
}

function csvText(rows: readonly (readonly string[])[], columns: number): string {
  const header = Array.from({ length: columns }, (_, index) => columnName(index)).join(',');
  return [header, ...rows.map((row) => row.join(','))].join('\n') + '\n';
}

async function errorsOf(stream: ReadableStream<unknown>): Promise<unknown> {
  try {
    await collect(stream);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('csvToExamples encodes exactly what csvFeatures converts', () => {
  test(`random schemas and cells: the same wire bytes, positions, skips and errors (${RUNS} cases, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(columnSpec, { minLength: 1, maxLength: 5 })
          .chain((specs) =>
            fc.tuple(
              fc.constant(specs.length),
              fc.constant(specs as CsvColumnSchemaInput[]),
              fc.array(fc.tuple(...specs.map((spec) => cellFor(spec))), { maxLength: 12 }),
            ),
          ),
        fc.constantFrom('fail', 'skip'),
        fc.integer({ min: 1, max: 5 }),
        async ([columns, specs, rows], onError, batchSize) => {
          const text = csvText(rows, columns);
          const schema = Object.fromEntries(specs.map((spec, index) => [columnName(index), spec]));
          const bytes = new TextEncoder().encode(text);
          const open = () => chunkedStream(bytes, [7, 3]);
          const base = { schema, onError, inferRows: 0, header: true } as const;
          const expected = csvFeatures({ ...base, stream: open() });
          const actual = csvToExamples({ ...base, stream: open(), batchSize });
          const expectedError = await errorsOf(expected);
          const actualError = await errorsOf(actual);
          expect(String(actualError)).toBe(String(expectedError));
          if (expectedError !== undefined) return;
          // Read again to compare the records (the first reads only proved both succeed).
          const want = await collect(csvFeatures({ ...base, stream: open() }));
          const got: Positioned<Example>[] = (
            await collect(csvToExamples({ ...base, stream: open(), batchSize }))
          ).flat();
          expect(got.map((example) => Buffer.from(encodeExample(example)).toString('hex'))).toEqual(
            want.map((row) => Buffer.from(encodeExample({ features: { ...row } })).toString('hex')),
          );
          expect(got.map((example) => positionOf(example))).toEqual(want.map((row) => positionOf(row)));
          const wantReport = reportOf(expected)!;
          const gotReport = reportOf(actual)!;
          expect(gotReport.skipped).toBe(wantReport.skipped);
          expect((gotReport.skippedErrors ?? []).map(String)).toEqual(
            (wantReport.skippedErrors ?? []).map(String),
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
