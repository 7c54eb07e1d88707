import { mkdtemp, rm, truncate, unlink } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parquetSource } from './node/parquet-source.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-faults-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A file of `groups` row groups of 1000 rows, so a reader is mid-file after the first group. */
function writeGroups(file: string, groups: number): void {
  const rows = groups * 1000;
  parquetWriteFile({
    filename: file,
    columnData: [
      { name: 'id', data: Array.from({ length: rows }, (_, index) => BigInt(index)), type: 'INT64' },
      { name: 'text', data: Array.from({ length: rows }, (_, index) => `row ${index}`), type: 'STRING' },
    ],
    rowGroupSize: 1000,
  });
}

/** Reads the first row, lets `change` alter the file, then drains: the error, and the rows read. */
async function readWhileChanging(
  file: string,
  change: () => Promise<void>,
): Promise<{ error: unknown; rows: number }> {
  const reader = parquetSource({ path: file, decodeRows: 1000 }).getReader();
  let rows = 0;
  try {
    const first = await reader.read();
    expect(first.done).toBe(false);
    rows++;
    await change();
    for (;;) {
      const next = await reader.read();
      if (next.done) return { error: undefined, rows };
      rows++;
    }
  } catch (error) {
    return { error, rows };
  }
}

describe('a Parquet file that changes while it is read', () => {
  test('a file truncated mid-read is a TfpipeError naming it, never rows read as if whole', async () => {
    const file = path.join(directory, 'shrinks.parquet');
    writeGroups(file, 5);
    const { error, rows } = await readWhileChanging(file, () => truncate(file, 2000));
    expect(TfpipeError.is(error), error instanceof Error ? error.message : typeof error).toBe(true);
    const failure = error as TfpipeError;
    expect(['INPUT_CHANGED', 'PARQUET_FORMAT']).toContain(failure.code);
    expect(failure.position.file).toBe(file);
    // Only whole row groups, decoded before the cut, came out before the error.
    expect(rows % 1000).toBe(0);
    expect(rows).toBeGreaterThanOrEqual(1000);
    expect(rows).toBeLessThan(5000);
  });

  test('a file deleted mid-read is read to the end from the open handle, or fails naming it', async () => {
    const file = path.join(directory, 'vanishes.parquet');
    writeGroups(file, 3);
    const { error, rows } = await readWhileChanging(file, () => unlink(file));
    // POSIX keeps an unlinked file's data for open handles: reading on is correct, and complete.
    if (error === undefined) expect(rows).toBe(3000);
    else {
      expect(TfpipeError.is(error), error instanceof Error ? error.message : typeof error).toBe(true);
      expect((error as TfpipeError).position.file).toBe(file);
    }
  });
});
