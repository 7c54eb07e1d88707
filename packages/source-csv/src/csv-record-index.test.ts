import { describe, expect, test } from 'vitest';
import { indexRecords, recordStride } from './csv-record-index.js';

const COMMA = 0x2c;
const QUOTE = 0x22;

/** Indexes `text` from `from` and returns the records as [start, end, lines, ...cells] rows. */
function index(
  text: string | Uint8Array,
  fieldCount: number,
  { from = 0, skipEmptyLines = false, ints = 1024 } = {},
): number[][] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const out = new Int32Array(ints).fill(-99);
  const count = indexRecords(bytes, from, COMMA, QUOTE, fieldCount, skipEmptyLines, out);
  const stride = recordStride(fieldCount);
  return Array.from({ length: count }, (_, record) => [
    ...out.subarray(record * stride, (record + 1) * stride),
  ]);
}

describe('indexRecords', () => {
  test('plain and quoted cells: record bounds, newlines in quotes, cell bounds (escaped cells as ~end)', () => {
    // Bytes 0–6 are the first record; the second runs from 7 to its CRLF at 21–22.
    const text = 'a,bb,c\n"x""y","p\nq",z\r\n';
    expect(index(text, 3)).toEqual([
      [0, 7, 0, 0, 1, 2, 4, 5, 6],
      [7, 23, 1, 8, ~12, 15, 18, 20, 21],
    ]);
    expect(recordStride(3)).toBe(9);
  });

  test('empty cells, a trailing empty cell, and starting in the middle', () => {
    const text = 'x\n,,\n1,,\n';
    expect(index(text, 3, { from: 2 })).toEqual([
      [2, 5, 0, 2, 2, 3, 3, 4, 4],
      [5, 9, 0, 5, 6, 7, 7, 8, 8],
    ]);
  });

  test('empty lines: skipped with -1 newlines when skipEmptyLines, else the end of the index', () => {
    const text = 'a,b\n\nc,d\n';
    expect(index(text, 2, { skipEmptyLines: true })).toEqual([
      [0, 4, 0, 0, 1, 2, 3],
      [4, 5, -1, -99, -99, -99, -99],
      [5, 9, 0, 5, 6, 7, 8],
    ]);
    expect(index(text, 2)).toEqual([[0, 4, 0, 0, 1, 2, 3]]);
  });

  test('stops at the first record it does not handle', () => {
    const stops = {
      'too few fields': 'a,b\nc\nd,e\n',
      'too many fields': 'a,b\nc,d,e\nf,g\n',
      'a lone carriage return line': 'a,b\n\rc,d\n',
      'text after a closing quote': 'a,b\n"c"x,d\n',
      'a quote never closed': 'a,b\n"c,d\n',
      'a quote closing at the end': 'a,b\nc,"d"',
      'no newline at the end': 'a,b\nc,d',
    };
    for (const [name, text] of Object.entries(stops)) {
      expect(index(text, 2), name).toEqual([[0, 4, 0, 0, 1, 2, 3]]);
    }
  });

  test('a full index: as many whole records as fit, then the caller goes on', () => {
    const text = '1,2\n3,4\n5,6\n';
    // Room for two records of 2 fields (7 ints each) and part of a third.
    const records = index(text, 2, { ints: 20 });
    expect(records).toHaveLength(2);
    expect(index(text, 2, { from: records[1]![1]!, ints: 20 })).toEqual([[8, 12, 0, 8, 9, 10, 11]]);
  });

  test('multi-byte UTF-8 and a quote as the last byte of a cell', () => {
    const text = Buffer.from('東京,"a""",ü\n');
    expect(index(text, 3)).toEqual([[0, text.length, 0, 0, 6, 8, ~11, 13, 15]]);
  });
});
