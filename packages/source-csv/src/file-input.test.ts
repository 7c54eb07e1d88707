import { writeFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { collect, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvSource } from './csv-source.js';
import { ChunkedFileReader } from './file-input.js';

const linux = process.platform === 'linux';
if (!linux) console.warn('file-input.test: names that are not UTF-8 need Linux, that case is skipped');

describe('path expansion (core glob)', () => {
  test('nested {a,{b,c}} alternatives, as every plugin reads them', async () => {
    await withTempDir(async (directory) => {
      for (const name of ['a', 'b', 'c', 'd']) await writeTemp(directory, `${name}.csv`, `x\n${name}\n`);
      const rows = await collect(csvSource({ path: `${directory}/{a,{b,c}}.csv` }));
      expect(rows.map((row) => row.x)).toEqual(['a', 'b', 'c']);
    });
  });

  test.skipIf(!linux)(
    'a glob matching a name that is not UTF-8 fails naming it (was a codeless ENOENT)',
    async () => {
      await withTempDir(async (directory) => {
        await writeTemp(directory, 'a.csv', 'x\n1\n');
        await writeFile(
          Buffer.concat([Buffer.from(`${directory}/d`), Buffer.from([0xff]), Buffer.from('.csv')]),
          'x\n2\n',
        );
        let error: unknown;
        try {
          await collect(csvSource({ path: `${directory}/*.csv` }));
        } catch (caught) {
          error = caught;
        }
        expect(TfpipeError.is(error) && error.code).toBe('IO');
        expect((error as Error).message).toBe(
          `cannot read a file whose name is not valid UTF-8 in ${directory}/d\\xFF.csv: rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest)`,
        );
      });
    },
  );

  test('a bad glob is INVALID_OPTION naming it', async () => {
    let error: unknown;
    try {
      await collect(csvSource({ path: 'data/[z-a].csv' }));
    } catch (caught) {
      error = caught;
    }
    expect(TfpipeError.is(error) && error.code).toBe('INVALID_OPTION');
    expect((error as Error).message).toBe('invalid glob "data/[z-a].csv": range "z-a" is out of order');
  });
});

describe('ChunkedFileReader', () => {
  test('reads into a buffer given back with recycle, and every byte still comes in order', async () => {
    await withTempDir(async (directory) => {
      const text = 'abcdefghijklmnopqrstuvwxyz0123456789';
      const path = await writeTemp(directory, 'letters.csv', text);
      const reader = await ChunkedFileReader.open(path, 'test', 4);
      const chunks: string[] = [];
      const buffers = new Set<ArrayBufferLike>();
      let chunk: Uint8Array | undefined;
      while ((chunk = await reader.read()) !== undefined) {
        chunks.push(Buffer.from(chunk).toString());
        buffers.add(chunk.buffer);
        reader.recycle(chunk);
      }
      expect(chunks.join('')).toBe(text);
      // 9 chunks read through at most the read-ahead's buffers, plus the one being read.
      expect(buffers.size).toBeLessThan(chunks.length);
    });
  });
});
