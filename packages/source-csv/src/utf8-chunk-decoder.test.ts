// UTF-16 input is told apart from bad UTF-8: a CSV_ENCODING error that says UTF-16 and how to
// convert, instead of "invalid UTF-8" (with a BOM) or a baffling row-length error (ASCII without one,
// which is valid UTF-8 with a NUL after every character). Real files on disk.
import { Buffer } from 'node:buffer';
import { describe, expect, test } from 'vitest';
import { collect, failure, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvSource } from './csv-source.js';

const CSV = 'name,count\nada,1\ngrace,2\n';
const utf16le = (text: string): Buffer => Buffer.from(text, 'utf16le');
const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();

describe('UTF-16 input', () => {
  test.each([
    ['UTF-16LE with a BOM', Buffer.concat([Buffer.of(0xff, 0xfe), utf16le(CSV)]), 'UTF-16LE'],
    ['UTF-16LE without a BOM', utf16le(CSV), 'UTF-16LE'],
    ['UTF-16BE with a BOM', Buffer.concat([Buffer.of(0xfe, 0xff), utf16be(CSV)]), 'UTF-16BE'],
    ['UTF-16BE without a BOM', utf16be(CSV), 'UTF-16BE'],
  ])('%s is CSV_ENCODING naming UTF-16 and the iconv command', async (_name, bytes, encoding) => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'export.csv', bytes);
      const error = await failure(csvSource({ path: file }));
      expect(error.code).toBe('CSV_ENCODING');
      expect(error.position).toMatchObject({ file, line: 1, byteOffset: 0 });
      expect(error.message).toContain(
        `it looks like ${encoding}, not UTF-8; convert it first: iconv -f ${encoding} -t UTF-8 export.csv > export.utf8.csv`,
      );
      expect(error.message).not.toContain('\n');
    });
  });

  test('UTF-8 with a BOM, and text with a rare NUL, still read; Latin-1 keeps the invalid UTF-8 advice', async () => {
    await withTempDir(async (directory) => {
      const bom = await writeTemp(
        directory,
        'bom.csv',
        Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from(CSV)]),
      );
      expect(await collect(csvSource({ path: bom }))).toHaveLength(2);
      const nul = await writeTemp(directory, 'nul.csv', 'name,count\nada\u0000,1\n');
      expect(await collect(csvSource({ path: nul }))).toHaveLength(1);
      const latin1 = await writeTemp(
        directory,
        'latin1.csv',
        Buffer.from('name,count\nJos\u00e9,1\n', 'latin1'),
      );
      const error = await failure(csvSource({ path: latin1 }));
      expect(error.code).toBe('CSV_ENCODING');
      expect(error.message).toContain('iconv -f latin1 -t utf-8');
    });
  });
});
