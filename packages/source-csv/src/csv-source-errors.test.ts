import { TfpipeError, reportOf } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { chunkedStream, collect, failure, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvFeatures } from './csv-features.js';
import { csvSource } from './csv-source.js';

const encoder = new TextEncoder();

function fromText(text: string | Uint8Array, sizes = [1, 2, 3]): ReadableStream<Uint8Array> {
  return chunkedStream(typeof text === 'string' ? encoder.encode(text) : text, sizes);
}

describe('bad input', () => {
  test('a row with too few fields is CSV_ROW_LENGTH at its line, column = first missing column', async () => {
    const error = await failure(
      csvSource({ stream: fromText('a,b,c\n1,2,3\n"x\ny",5\n'), fileName: 'r.csv' }),
    );
    expect(TfpipeError.is(error)).toBe(true);
    expect(error.code).toBe('CSV_ROW_LENGTH');
    expect(error.position).toEqual({ file: 'r.csv', line: 3, row: 1, column: 3 });
    expect(error.message).toContain('row has 2 fields, expected 3');
  });

  test('a row with too many fields is CSV_ROW_LENGTH, column = first extra column', async () => {
    const error = await failure(csvSource({ stream: fromText('a,b\n1,2\n3,4,5\n'), fileName: 'r.csv' }));
    expect(error.code).toBe('CSV_ROW_LENGTH');
    expect(error.position).toMatchObject({ line: 3, column: 3, row: 1 });
  });

  test("under onError 'skip' ragged rows are counted and every other row is written unshifted", async () => {
    const skipped: TfpipeError[] = [];
    const stream = csvSource({
      stream: fromText('a,b\n1,2\n3\n4,5,6\n7,8\n'),
      onError: 'skip',
      onSkip: (error) => skipped.push(error),
    });
    const rows = await collect(stream);
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { a: '1', b: '2' },
      { a: '7', b: '8' },
    ]);
    expect(skipped.map((error) => [error.code, error.position.line])).toEqual([
      ['CSV_ROW_LENGTH', 3],
      ['CSV_ROW_LENGTH', 4],
    ]);
    expect(reportOf(stream)).toMatchObject({ stage: 'csvSource', records: 2, skipped: 2 });
  });

  test('an unterminated quote is a fatal CSV_PARSE at the line where the quote opened, even under skip', async () => {
    const error = await failure(
      csvSource({ stream: fromText('a,b\n1,2\n3,"open\nmore\nlines\n'), fileName: 'q.csv', onError: 'skip' }),
    );
    expect(error.code).toBe('CSV_PARSE');
    expect(error.fatal).toBe(true);
    expect(error.position).toEqual({ file: 'q.csv', line: 3, column: 2 });
  });

  test('text after a closing quote is a CSV_PARSE record error with line and column', async () => {
    const error = await failure(csvSource({ stream: fromText('a,b\n1,"x"y\n'), fileName: 'q.csv' }));
    expect(error.code).toBe('CSV_PARSE');
    expect(error.position).toEqual({ file: 'q.csv', line: 2, column: 2, row: 0 });
  });

  test('invalid UTF-8 is CSV_ENCODING with its line and byte offset, whatever the chunking', async () => {
    const bytes = new Uint8Array([...encoder.encode('a,b\n1,東\n2,'), 0xff, ...encoder.encode('x\n')]);
    for (const sizes of [[1], [2], [3], [bytes.length]]) {
      const error = await failure(csvSource({ stream: chunkedStream(bytes, sizes), fileName: 'e.csv' }));
      expect(error.code).toBe('CSV_ENCODING');
      expect(error.position).toEqual({ file: 'e.csv', line: 3, byteOffset: 12 });
    }
  });

  test('invalid UTF-8 deep in a file is CSV_ENCODING at the line the bytes before it end on', async () => {
    // Quoted fields over several lines, CRLFs and multi-byte characters before the bad byte; its line
    // is counted here from the raw bytes, independently of the parser.
    let text = 'id,note,city\r\n';
    for (let index = 0; index < 3000; index++) {
      text += index % 7 === 0 ? `${index},"two\nlines, ""quoted""",東京\r\n` : `${index},plain,Zürich\n`;
    }
    // The last field is long and still open: text pushed after it waits unparsed in the parser.
    const head = encoder.encode(`${text}3000,"open\n${'still open, more lines\n'.repeat(300)}last `);
    const bytes = new Uint8Array([...head, 0xc3, 0x28, ...encoder.encode('"\n')]);
    const line = head.filter((byte) => byte === 0x0a).length + 1;
    for (const delimiter of [undefined, ',']) {
      for (const sizes of [[1, 2, 3], [4096], [65536], [bytes.length]]) {
        const stream = chunkedStream(bytes, sizes);
        const options = delimiter === undefined ? {} : { delimiter };
        const error = await failure(csvSource({ stream, fileName: 'deep.csv', ...options }));
        expect(error.code).toBe('CSV_ENCODING');
        expect(error.position).toEqual({ file: 'deep.csv', line, byteOffset: head.length });
      }
    }
  });

  test('a multi-byte character cut off by the end of the input is CSV_ENCODING', async () => {
    const bytes = new Uint8Array([...encoder.encode('a\n'), 0xe6, 0x9d]);
    const error = await failure(csvSource({ stream: chunkedStream(bytes, [1]), fileName: 'e.csv' }));
    expect(error.code).toBe('CSV_ENCODING');
    expect(error.position).toMatchObject({ line: 2, byteOffset: 2 });
  });

  test('a duplicated header name is CSV_HEADER at line 1, column of the second occurrence', async () => {
    const error = await failure(csvSource({ stream: fromText('a,b,a\n1,2,3\n'), fileName: 'h.csv' }));
    expect(error.code).toBe('CSV_HEADER');
    expect(error.position).toEqual({ file: 'h.csv', line: 1, column: 3, field: 'a' });
  });

  test('an empty file is CSV_EMPTY naming the file; allowEmpty yields no rows', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'empty.csv', '');
      const error = await failure(csvSource({ path: file }));
      expect(error.code).toBe('CSV_EMPTY');
      expect(error.position).toEqual({ file, line: 1, column: 1 });
      expect(error.message).toContain(file);
      expect(await collect(csvSource({ path: file, allowEmpty: true }))).toEqual([]);
    });
  });

  test('a header-only file is CSV_EMPTY at the line after the header; allowEmpty yields no rows', async () => {
    const error = await failure(csvSource({ stream: fromText('a,b\r\n'), fileName: 'h.csv' }));
    expect(error.code).toBe('CSV_EMPTY');
    expect(error.position).toEqual({ file: 'h.csv', line: 2, column: 1 });
    expect(await collect(csvSource({ stream: fromText('a,b\n'), allowEmpty: true }))).toEqual([]);
  });

  test('files with different headers are CSV_HEADER naming both files', async () => {
    await withTempDir(async (directory) => {
      const first = await writeTemp(directory, 'part-1.csv', 'a,b\n1,2\n');
      const second = await writeTemp(directory, 'part-2.csv', 'a,c\n3,4\n');
      const error = await failure(csvSource({ path: `${directory}/part-*.csv` }));
      expect(error.code).toBe('CSV_HEADER');
      expect(error.position).toEqual({ file: second, line: 1, column: 2 });
      expect(error.message).toContain(first);
    });
  });

  test('a non-numeric value in an int64 column is CSV_VALUE with file, line, CSV column and field', async () => {
    const error = await failure(
      csvFeatures({ stream: fromText('id,n\n1,2\n2,x\n'), fileName: 'v.csv', schema: { n: 'int64' } }),
    );
    expect(error.code).toBe('CSV_VALUE');
    expect(error.position).toEqual({ file: 'v.csv', line: 3, row: 1, column: 2, field: 'n' });
  });

  test('bad options fail when the factory is called, naming the option', () => {
    expect(() => csvSource({ path: 'x.csv', delimiter: ',,' })).toThrow(
      'csvSource option delimiter: expected one character other than a newline, got ",,"',
    );
    expect(() => csvSource({})).toThrow('csvSource options: expected exactly one of path, paths, stream');
    expect(() => csvSource({ path: 'x.csv', header: ['a', 'a'] })).toThrow(
      'csvSource option header: expected each name once, "a" is there twice, got ["a","a"]',
    );
    expect(() => csvFeatures({ stream: fromText('a\n1\n'), inferRows: 'all' })).toThrow(/stream/);
  });

  test('a missing file is INPUT_NOT_FOUND', async () => {
    const error = await failure(csvSource({ path: '/nonexistent/file.csv' }));
    expect(error.code).toBe('INPUT_NOT_FOUND');
  });
});
