import fc from 'fast-check';
import { ENCODED, NumberCell } from '@tfpipe/core/internal';
import { TfpipeError, positionOf, reportOf } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { readFloat } from './csv-byte-path.js';
import { csvToExamples } from './csv-features.js';
import type { CsvFeaturesOptions } from './csv-features.js';

const SEED = Number(process.env.RELIABILITY_SEED ?? 11);
// Random cases; the properties also run the explicit edge cases below (EDGE_FILES, DECIMAL_EDGES) every time.
const RUNS = process.env.RELIABILITY_FULL === '1' ? 2000 : 60;

const SCHEMA = { n: 'int64', x: 'float', s: 'bytes', k: 'int64' } as const;

/** What a conversion gave: each Example's bytes and position, the skipped errors, the error that ended it. */
interface Outcome {
  readonly examples: string[];
  readonly skipped: unknown[];
  readonly failure: unknown;
  readonly byteParsed: number;
}

function describeError(error: TfpipeError): unknown {
  return { code: error.code, message: error.message, position: error.position };
}

async function convert(path: string, options: Partial<CsvFeaturesOptions>): Promise<Outcome> {
  const stream = csvToExamples({ path, schema: SCHEMA, delimiter: ',', onError: 'skip', ...options });
  const examples: string[] = [];
  let failure: unknown;
  try {
    for await (const example of stream as ReadableStream<Example>) {
      const bytes = (example as { [ENCODED]?: Uint8Array })[ENCODED]!;
      const { line, row } = positionOf(example)!;
      examples.push(`${line}:${row}:${Buffer.from(bytes).toString('hex')}`);
    }
  } catch (error) {
    if (!TfpipeError.is(error)) throw error;
    failure = describeError(error);
  }
  const report = reportOf(stream)!;
  return {
    examples,
    // Sorted: the text path lists a chunk's parse errors (ragged rows) before its value errors.
    skipped: (report.skippedErrors ?? [])
      .map((error) => describeError(error))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    failure,
    byteParsed: (report.details as { byteParsedRecords?: number }).byteParsedRecords ?? 0,
  };
}

/**
 * Converts with the byte parser and without, and expects the same of both. When a fatal error ends
 * the run, each path may have handed on (and skipped) a different number of the records before it
 * (the text path drops the rest of the chunk it was parsing); the Examples it did hand on must agree.
 */
async function expectSame(path: string, options: Partial<CsvFeaturesOptions>): Promise<Outcome> {
  const text = await convert(path, { ...options, byteParser: false });
  const bytes = await convert(path, { ...options, byteParser: true });
  expect(text.byteParsed).toBe(0);
  expect(bytes.failure).toEqual(text.failure);
  if (text.failure === undefined) {
    expect(bytes.skipped).toEqual(text.skipped);
    expect(bytes.examples).toEqual(text.examples);
  } else {
    const shorter = Math.min(bytes.examples.length, text.examples.length);
    expect(bytes.examples.slice(0, shorter)).toEqual(text.examples.slice(0, shorter));
  }
  return bytes;
}

const CELLS = [
  '12',
  '-7',
  '+3',
  '007',
  '-0',
  '9007199254740993',
  '-9223372036854775808',
  ' 4',
  '1_000',
  '1.5',
  '-0.0',
  '.5',
  '5.',
  '1e5',
  '2.5E-3',
  '1.23456789012345678',
  '1e-30',
  '123456789012345',
  'inf',
  'NaN',
  'x',
  'São Paulo',
  '東京',
  '😀',
  '',
  '"quoted, comma"',
  '"with ""escape"""',
  '"multi\nline"',
  '"crlf\r\ninside"',
  '"12"',
  '"ab"c',
  '"',
];
const INTS = ['12', '-7', '+3', '007', '-0', '123456789012345', '"42"', ''];
const FLOATS = ['1.5', '-0.0', '.5', '5.', '1e5', '2.5E-3', '0.1', '-123.456', '"7.25"', ''];
const TEXTS = ['abc', 'São Paulo', '東京', '😀', '"a, b"', '"say ""hi"""', '"two\nlines"', ''];
const cell = fc.constantFrom(...CELLS);
const int = fc.constantFrom(...INTS);
const float = fc.constantFrom(...FLOATS);
const text = fc.constantFrom(...TEXTS);
/** Mostly rows of the right kinds (the byte path's), some of anything (the text path's). */
const row = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(int, float, text, int).map((cells) => cells.join(',')) },
  { weight: 1, arbitrary: fc.array(cell, { minLength: 3, maxLength: 5 }).map((cells) => cells.join(',')) },
  { weight: 1, arbitrary: fc.constant('') },
);
const file = fc.record({
  rows: fc.array(row, {
    minLength: 20,
    maxLength: 80,
  }),
  newline: fc.constantFrom('\n', '\r\n'),
  trailing: fc.boolean(),
});

/**
 * The edges the random cases may miss, run every time: every value above in one file (rows of the right
 * kinds, a row of any cells and an empty row after every second one; the cells that end a run, an
 * unterminated quote among them, in its last row), in both newlines, with and without a last newline, read
 * in chunks of 1 byte and of 120, the ends of the chunk sizes drawn. In chunks of 120 it sits between blocks
 * of rows of plain values only, which the byte path reads (in chunks of 1 byte no record fits a chunk, so the
 * byte path never starts and the blocks would only add time).
 */
const rowsOf = (ints: string[], floats: string[], texts: string[]): string[] =>
  floats.map(
    (float, i) =>
      `${ints[i % ints.length]},${float},${texts[i % texts.length]},${ints[(i + 1) % ints.length]}`,
  );
const isPlain = (value: string): boolean => value !== '' && !value.startsWith('"');
const typedRows = rowsOf(INTS, FLOATS, TEXTS);
const plainRows = rowsOf(INTS.filter(isPlain), FLOATS.filter(isPlain), TEXTS.filter(isPlain));
const cellRows = Array.from({ length: Math.ceil(CELLS.length / 4) }, (_, i) =>
  CELLS.slice(i * 4, i * 4 + 4).join(','),
);
const mixedRows = typedRows.flatMap((typed, i) =>
  i % 2 === 0 ? [typed] : [typed, cellRows[(i - 1) / 2]!, ''],
);
const lastRows = cellRows.slice(typedRows.length / 2);
const EVERY_VALUE = [...mixedRows, ...lastRows];
const BETWEEN_PLAIN = [...plainRows, ...mixedRows, ...plainRows, ...lastRows];
const EDGE_FILES: [{ rows: string[]; newline: string; trailing: boolean }, number][] = [
  [{ rows: EVERY_VALUE, newline: '\n', trailing: true }, 1],
  [{ rows: EVERY_VALUE, newline: '\r\n', trailing: false }, 1],
  [{ rows: BETWEEN_PLAIN, newline: '\n', trailing: false }, 120],
  [{ rows: BETWEEN_PLAIN, newline: '\r\n', trailing: true }, 120],
];

describe('the byte parser gives what the text parser gives', () => {
  test(`random CSV, every chunk size: same Examples, positions and errors (${EDGE_FILES.length} edge files, ${RUNS} random, seed ${SEED})`, async () => {
    await withTempDir(async (directory) => {
      let byteParsed = 0;
      await fc.assert(
        fc.asyncProperty(
          file,
          fc.integer({ min: 1, max: 120 }),
          async ({ rows, newline, trailing }, size) => {
            const content = `n,x,s,k${newline}${rows.join(newline)}${trailing ? newline : ''}`;
            const path = await writeTemp(directory, 'random.csv', content);
            byteParsed += (await expectSame(path, { chunkBytes: size })).byteParsed;
            console.log(
              rows.length,
              size,
              ((o) =>
                JSON.stringify({
                  n: o.examples.length,
                  skipped: o.skipped.length,
                  failure: o.failure,
                  byteParsed: o.byteParsed,
                }))(await expectSame(path, { chunkBytes: size })),
            );
          },
        ),
        { seed: SEED, numRuns: EDGE_FILES.length + RUNS, examples: EDGE_FILES },
      );
      // The property would hold trivially if the byte path never ran.
      expect(byteParsed).toBeGreaterThan(RUNS * 10);
    });
    // ~20 s on CI's 2 cores beside the other packages' tests; more when the machine is busier.
  }, 120_000);

  test('a plain file is read from bytes after its first chunk, values exact', async () => {
    await withTempDir(async (directory) => {
      const lines = ['n,x,s,k'];
      for (let index = 0; index < 500; index++) {
        lines.push(`${index - 250},${(index * 1.37).toFixed(3)},"v, ${index}",${index % 7}`);
      }
      lines.push('-123456789012345,0.1,東京,1', '5,1e22,"a ""b""",2', '6,3.4028235e38,,3');
      const path = await writeTemp(directory, 'plain.csv', lines.join('\n') + '\n');
      const outcome = await expectSame(path, { chunkBytes: 512 });
      expect(outcome.examples).toHaveLength(503);
      expect(outcome.byteParsed).toBeGreaterThan(450);
    });
  });

  test('a float cell `1e` before a `-` delimiter: the same error as the text path, not 1', async () => {
    await withTempDir(async (directory) => {
      const lines = ['n-x-s-k'];
      for (let index = 0; index < 300; index++) lines.push(`${index}-1.5-v${index}-${index % 7}`);
      lines.push('300-1e-late-1', '301-2.5-ok-2');
      const path = await writeTemp(directory, 'dash.csv', lines.join('\n') + '\n');
      const outcome = await expectSame(path, { chunkBytes: 512, delimiter: '-' });
      expect(outcome.byteParsed).toBeGreaterThan(200);
      expect(outcome.examples).toHaveLength(301);
      expect(outcome.skipped).toEqual([
        expect.objectContaining({
          code: 'CSV_VALUE',
          position: expect.objectContaining({ line: 302, field: 'x' }),
        }),
      ]);
    });
  });

  test('invalid UTF-8, an unterminated quote and a bad value deep in a file: the same errors', async () => {
    await withTempDir(async (directory) => {
      const good = Array.from({ length: 200 }, (_, index) => `${index},1.5,ok,1`).join('\n');
      const invalid = new Uint8Array([
        ...Buffer.from(`n,x,s,k\n${good}\n7,2.5,bad`),
        0xff,
        ...Buffer.from(`,1\n${good}\n`),
      ]);
      for (const onError of ['skip', 'fail'] as const) {
        const utf8 = await expectSame(await writeTemp(directory, 'utf8.csv', invalid), {
          chunkBytes: 300,
          onError,
        });
        expect(utf8.failure).toMatchObject({ code: 'CSV_ENCODING', position: { line: 202 } });
        // The text path takes a bad row early and hands back: the invalid byte's offset still counts from the file's start.
        const mixedHead = Buffer.from(`n,x,s,k\n${good}\nten,2,s,3\n"a"b,1,s,1\n${good}\n7,2.5,bad`);
        const mixed = await expectSame(
          await writeTemp(
            directory,
            'mixed.csv',
            new Uint8Array([...mixedHead, 0xff, ...Buffer.from(`,1\n${good}\n`)]),
          ),
          { chunkBytes: 300, onError },
        );
        expect(mixed.failure).toMatchObject(
          onError === 'skip'
            ? { code: 'CSV_ENCODING', position: { line: 404, byteOffset: mixedHead.length } }
            : { code: 'CSV_PARSE', position: { line: 203 } },
        );
        const quote = await expectSame(
          await writeTemp(directory, 'quote.csv', `n,x,s,k\n${good}\n1,2,"open,3\n${good}\n`),
          { chunkBytes: 300, onError },
        );
        expect(quote.failure).toMatchObject({ code: 'CSV_PARSE', position: { line: 202 } });
        const value = await expectSame(
          await writeTemp(directory, 'value.csv', `n,x,s,k\n${good}\nten,2,s,3\n${good}\n`),
          { chunkBytes: 300, onError },
        );
        if (onError === 'skip') {
          expect(value.skipped).toEqual([expect.objectContaining({ code: 'CSV_VALUE' })]);
          expect(value.examples).toHaveLength(400);
        } else {
          expect(value.failure).toMatchObject({ code: 'CSV_VALUE', position: { line: 202, row: 200 } });
        }
      }
    });
  });
});

/** readFloat's edges, run every time: empty, signs and points alone, no digits on a side, the longest digit runs, exponent 0 and 40. */
const DECIMAL_EDGES = [
  '',
  '-',
  '.',
  '-.',
  'e5',
  '1e',
  '1e+',
  '0',
  '-0',
  '.5',
  '5.',
  '-.5e-0',
  '999999999.999999999E+40',
  '-000000000.000000001e-40',
  '123456789e40',
];

describe('readFloat', () => {
  test('reads the same double as Number() for every plain decimal it takes, and only those', () => {
    const decimal = fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.stringMatching(/^\d{0,9}$/),
        fc.option(fc.stringMatching(/^\d{0,9}$/)),
        fc.option(
          fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 40 })),
        ),
      )
      .map(
        ([sign, whole, fraction, exponent]) =>
          `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`}`,
      );
    let read = 0;
    fc.assert(
      fc.property(decimal, (text) => {
        const cell = new NumberCell();
        if (!readFloat(Buffer.from(text), 0, text.length, cell)) {
          expect(cell.value).toBeNaN();
          return;
        }
        read++;
        expect(Object.is(cell.value, Number(text))).toBe(true);
      }),
      {
        seed: SEED,
        numRuns: DECIMAL_EDGES.length + RUNS * 40,
        examples: DECIMAL_EDGES.map((edge) => [edge]),
      },
    );
    expect(read).toBeGreaterThan(RUNS * 10);
  });

  test('reads only within its range: an exponent sign after the range does not complete "1e"', () => {
    // With `-` or `+` as the delimiter, the byte after a cell may be one.
    for (const text of ['1e-5', '1e+5', '2.5E-', '7e']) {
      const cut = text.indexOf('e') >= 0 ? text.indexOf('e') + 1 : text.indexOf('E') + 1;
      const cell = new NumberCell();
      expect(readFloat(Buffer.from(text), 0, cut, cell), text.slice(0, cut)).toBe(false);
      expect(Number(text.slice(0, cut))).toBeNaN();
    }
  });
});
