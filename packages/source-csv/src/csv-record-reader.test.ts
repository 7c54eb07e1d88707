import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { describe, expect, test } from 'vitest';
import { withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { CsvRecordReader, type CsvRecord } from './csv-record-reader.js';
import { resolveCsvSourceOptions } from './csv-source-options.js';

/** A header and `rows` rows of about 20 bytes: several reads of `READ` bytes. */
function table(rows: number): string {
  const lines = ['id,name,score'];
  for (let index = 0; index < rows; index++) lines.push(`${index},name-${index},${index * 0.5}`);
  return `${lines.join('\n')}\n`;
}
const READ = 256;

function readerOf(path: string): CsvRecordReader {
  const options = resolveCsvSourceOptions({ path, delimiter: ',' });
  return new CsvRecordReader(options, new RecordErrorPolicy({}), READ);
}

describe('CsvRecordReader hand-off', () => {
  test('next() reads every record of a file itself, never handing the rest over', async () => {
    await withTempDir(async (directory) => {
      const path = await writeTemp(directory, 'table.csv', table(200));
      const reader = readerOf(path);
      const records: CsvRecord[] = [];
      let batch: CsvRecord[] | undefined;
      while ((batch = await reader.next()) !== undefined) {
        expect(batch.length).toBeGreaterThan(0);
        records.push(...batch);
      }
      expect(records.map((record) => record.row)).toEqual(Array.from({ length: 200 }, (_, index) => index));
      expect(reader.bytes).toBe(table(200).length);
    });
  });

  test('nextWithHandOff() returns the rest of the file with the records before it, positioned', async () => {
    await withTempDir(async (directory) => {
      const text = table(200);
      const path = await writeTemp(directory, 'table.csv', text);
      const reader = readerOf(path);
      const first = await reader.nextWithHandOff();
      const remainder = first?.remainder;
      expect(remainder).toBeDefined();
      const records = first!.records;
      expect(records.length).toBeGreaterThan(0);
      // The rest starts with the record after the last one returned, at its byte, line and row.
      const next = records.length;
      expect(remainder!.row).toBe(next);
      expect(remainder!.line).toBe(next + 2);
      expect(remainder!.byteOffset).toBe(text.indexOf(`\n${next},name-${next},`) + 1);
      // The caller owns the input: leftover, then the file's unread bytes, are the file's rest.
      const pieces = [Buffer.from(remainder!.leftover)];
      let chunk: Uint8Array | undefined;
      while ((chunk = await remainder!.input.read()) !== undefined) pieces.push(Buffer.from(chunk));
      await remainder!.input.close();
      expect(Buffer.concat(pieces).toString()).toBe(text.slice(remainder!.byteOffset));
      // The reader has nothing more of that file, and no other file.
      expect(await reader.nextWithHandOff()).toBeUndefined();
    });
  });

  test('a file read in one chunk is not handed over', async () => {
    await withTempDir(async (directory) => {
      const path = await writeTemp(directory, 'small.csv', table(3));
      const reader = readerOf(path);
      const batch = await reader.nextWithHandOff();
      expect(batch?.remainder).toBeUndefined();
      expect(batch?.records.map((record) => record.fields[0])).toEqual(['0', '1', '2']);
      expect(await reader.nextWithHandOff()).toBeUndefined();
    });
  });
});
