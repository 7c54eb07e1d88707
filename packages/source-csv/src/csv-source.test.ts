import { appendFile, mkdir, readdir, stat, truncate } from 'node:fs/promises';
import { positionOf, reportOf } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, test } from 'vitest';
import { collect, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvSource } from './csv-source.js';
import { detectDelimiter } from './detect-delimiter.js';
import { READ_CHUNK_BYTES } from './file-input.js';

async function openDescriptors(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

async function drain(reader: ReadableStreamDefaultReader<unknown>): Promise<void> {
  while (!(await reader.read()).done);
}

function bigCsv(rows: number): string {
  return `a,b\n${Array.from({ length: rows }, (_, index) => `${index},"row ${index}"`).join('\n')}\n`;
}

// Beyond core's conformance suite (csv-source-conformance.test.ts): several files, chunks read ahead, and
// the file handle itself.
describe('source contract', () => {
  test('rows come in file order, files in the order given, each with file/line/row', async () => {
    await withTempDir(async (directory) => {
      const first = await writeTemp(directory, 'b.csv', 'a\n1\n2\n');
      const second = await writeTemp(directory, 'a.csv', 'a\n3\n');
      const rows = await collect(csvSource({ paths: [first, second] }));
      expect(rows.map((row) => row.a)).toEqual(['1', '2', '3']);
      expect(rows.map((row) => positionOf(row))).toEqual([
        { file: first, line: 2, row: 0 },
        { file: first, line: 3, row: 1 },
        { file: second, line: 2, row: 0 },
      ]);
    });
  });

  test('backpressure: reading one row reads about one chunk of a large file, not the file', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'big.csv', bigCsv(200_000));
      const stream = csvSource({ path: file });
      const reader = stream.getReader();
      await reader.read();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reportOf(stream)!.bytes).toBeLessThanOrEqual(2 * READ_CHUNK_BYTES);
      await reader.cancel();
    });
  });

  for (const change of ['shrinks', 'grows'] as const) {
    test(`a file that ${change} while chunks are read ahead is INPUT_CHANGED, never a silent cut`, async () => {
      await withTempDir(async (directory) => {
        const file = await writeTemp(directory, 'big.csv', bigCsv(200_000));
        const size = (await stat(file)).size;
        expect(size).toBeGreaterThan(8 * READ_CHUNK_BYTES);
        const stream = csvSource({ path: file });
        const reader = stream.getReader();
        await reader.read();
        if (change === 'shrinks') await truncate(file, size - 3 * READ_CHUNK_BYTES);
        else await appendFile(file, '1,"appended"\n');
        expect(await rejectionOf(drain(reader))).toMatchObject({ code: 'INPUT_CHANGED', position: { file } });
      });
    });
  }

  test('cancellation closes the file handle', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'big.csv', bigCsv(50_000));
      const before = await openDescriptors();
      const stream = csvSource({ path: file });
      const reader = stream.getReader();
      await reader.read();
      expect(await openDescriptors()).toBe(before + 1);
      await reader.cancel();
      expect(await openDescriptors()).toBe(before);
    });
  });

  test('an error closes the file handle', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'bad.csv', `${bigCsv(20_000)}1,2,3\n`);
      const before = await openDescriptors();
      await expect(collect(csvSource({ path: file }))).rejects.toMatchObject({
        code: 'CSV_ROW_LENGTH',
        position: { line: 20_002 },
      });
      expect(await openDescriptors()).toBe(before);
    });
  });

  test('the report counts rows and bytes and names the delimiter and columns', async () => {
    const stream = csvSource({ stream: new Blob(['x;y\n1;2\n']).stream() });
    await collect(stream);
    expect(reportOf(stream)).toMatchObject({
      stage: 'csvSource',
      records: 1,
      bytes: 8,
      details: { delimiter: ';', columns: ['x', 'y'] },
    });
  });
});

describe('options', () => {
  test('the delimiter is detected among , ; tab |', () => {
    expect(detectDelimiter('a;b;c\n1;2,5;3\n', '"')).toBe(';');
    expect(detectDelimiter('a\tb\n"x\ty"\t2\n', '"')).toBe('\t');
    expect(detectDelimiter('a|b\n1|2\n', '"')).toBe('|');
    expect(detectDelimiter('a,b\n"1;2",3\n', '"')).toBe(',');
  });

  test('header: false names columns column1…; header: names uses them and reads line 1 as data', async () => {
    const plain = await collect(csvSource({ stream: new Blob(['1,2\n']).stream(), header: false }));
    expect({ ...plain[0] }).toEqual({ column1: '1', column2: '2' });
    const named = await collect(csvSource({ stream: new Blob(['1,2\n']).stream(), header: ['x', 'y'] }));
    expect({ ...named[0] }).toEqual({ x: '1', y: '2' });
    expect(positionOf(named[0])).toMatchObject({ line: 1, row: 0 });
  });

  test('comment lines and empty lines are skipped with line numbers kept', async () => {
    const rows = await collect(
      csvSource({ stream: new Blob(['# note\na,b\n\n1,2\n# x\n3,4\n']).stream(), comment: '#' }),
    );
    expect(rows.map((row) => [row.a, positionOf(row)?.line])).toEqual([
      ['1', 4],
      ['3', 6],
    ]);
  });

  test('a backslash escape inside quotes', async () => {
    const rows = await collect(
      csvSource({ stream: new Blob(['a\n"say \\"hi\\""\n']).stream(), escape: '\\' }),
    );
    expect(rows[0]!.a).toBe('say "hi"');
  });

  test('globs expand *, ?, ** and {a,b} on disk, skipping dot-files', async () => {
    await withTempDir(async (directory) => {
      await writeTemp(directory, 'a1.csv', 'a\n1\n');
      await writeTemp(directory, 'b1.csv', 'a\n2\n');
      await writeTemp(directory, 'c1.csv', 'a\n3\n');
      await writeTemp(directory, '.b2.csv', 'a\nhidden\n');
      await mkdir(`${directory}/x/y`, { recursive: true });
      await writeTemp(directory, 'x/y/z.csv', 'a\n4\n');
      const values = async (path: string): Promise<unknown[]> =>
        (await collect(csvSource({ path }))).map((row) => row.a);
      expect(await values(`${directory}/{a,b}?.csv`)).toEqual(['1', '2']);
      expect(await values(`${directory}/*.csv`)).toEqual(['1', '2', '3']);
      expect(await values(`${directory}/**/*.csv`)).toEqual(['1', '2', '3', '4']);
    });
  });
});
