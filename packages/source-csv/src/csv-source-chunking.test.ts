import fc from 'fast-check';
import { positionOf } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { chunkedStream, collect } from './__fixtures__/test-support.js';
import { csvSource } from './csv-source.js';

const encoder = new TextEncoder();

/** Cells full of what breaks parsers at chunk boundaries. */
const cell = fc.stringMatching(/^[a-z0-9 ,;"\r\n東京😀é\u00a0]{0,8}$/u);

function quoteCell(value: string, forceQuote: boolean): string {
  return forceQuote || /[",\r\n]/.test(value) || value === '' ? `"${value.replaceAll('"', '""')}"` : value;
}

describe('chunk boundaries', () => {
  test('random tables in 1- to 3-byte chunks parse exactly, with the line of each row', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }).chain((width) =>
          fc.record({
            rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), {
              minLength: 1,
              maxLength: 8,
            }),
            width: fc.constant(width),
            crlf: fc.boolean(),
            trailingNewline: fc.boolean(),
            bom: fc.boolean(),
            forceQuote: fc.boolean(),
            sizes: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 7 }),
          }),
        ),
        async ({ rows, width, crlf, trailingNewline, bom, forceQuote, sizes }) => {
          const newline = crlf ? '\r\n' : '\n';
          const header = Array.from({ length: width }, (_, index) => `h${index}`);
          const records = [header, ...rows].map((fields) =>
            fields.map((value) => quoteCell(value, forceQuote)).join(','),
          );
          const text = records.join(newline) + (trailingNewline ? newline : '');
          const expectedLines: number[] = [];
          let line = 1;
          for (const record of records) {
            expectedLines.push(line);
            line += (record.match(/\n/g)?.length ?? 0) + 1;
          }
          const bytes = encoder.encode((bom ? '\ufeff' : '') + text);
          const parsed = await collect(
            csvSource({ stream: chunkedStream(bytes, sizes), delimiter: ',', allowEmpty: true }),
          );
          expect(parsed.map((row) => header.map((name) => row[name]))).toEqual(rows);
          expect(parsed.map((row) => positionOf(row)?.line)).toEqual(expectedLines.slice(1));
          expect(parsed.map((row) => positionOf(row)?.row)).toEqual(rows.map((_, index) => index));
        },
      ),
      { numRuns: 300 },
    );
  });

  const cases: [string, string, Record<string, string>[]][] = [
    ['"" escapes', 'a,b\n"say ""hi""","x"\n', [{ a: 'say "hi"', b: 'x' }]],
    ['CRLF inside quotes', 'a,b\r\n"1\r\n2",3\r\n', [{ a: '1\r\n2', b: '3' }]],
    ['CJK and emoji', '名前,絵\n東京,😀🎉\n', [{ 名前: '東京', 絵: '😀🎉' }]],
    ['no trailing newline', 'a,b\n1,2', [{ a: '1', b: '2' }]],
    ['BOM', '\ufeffa,b\n1,2\n', [{ a: '1', b: '2' }]],
    ['quoted delimiter and empty quoted field', 'a,b,c\n"x,y","",z\n', [{ a: 'x,y', b: '', c: 'z' }]],
    ['quote at end of chunk followed by a quote', 'a\n""""\n', [{ a: '"' }]],
  ];
  for (const [name, text, expected] of cases) {
    test(`${name}: same rows whole and in 1-byte chunks`, async () => {
      const bytes = encoder.encode(text);
      for (const sizes of [[bytes.length], [1], [2], [3], [1, 2, 3]]) {
        const rows = await collect(csvSource({ stream: chunkedStream(bytes, sizes) }));
        expect(rows.map((row) => ({ ...row }))).toEqual(expected);
      }
    });
  }
});
