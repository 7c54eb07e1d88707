import { readFile } from 'node:fs/promises';
import { positionOf } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { collect, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvSource } from './csv-source.js';
import { csvSplitPoints } from './csv-split-points.js';

/** Quoted newlines, blank lines, CRLF lines, a line that is a lone CR then text, doubled quotes. */
function awkwardCsv(header: boolean): string {
  const lines = header ? ['id,text'] : [];
  for (let index = 0; index < 200; index++) {
    if (index % 5 === 0) lines.push(`${index},"a ""quoted""\nnewline"`);
    else if (index % 7 === 0) lines.push(`${index},crlf\r`);
    else if (index % 11 === 0) lines.push(`\r${index},after a CR`);
    else lines.push(`${index},plain`);
    if (index % 9 === 0) lines.push('');
    if (index % 13 === 0) lines.push('\r');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Checks the split points of `text` against the reader: each start's line and row are those the
 * reader gives the whole file, and the ranges read alone give its records at its positions.
 */
async function checkAgainstReader(
  text: string,
  options: { header: boolean; skipEmptyLines: boolean; targetBytes: number; fields: number },
): Promise<void> {
  const { header, skipEmptyLines, targetBytes, fields } = options;
  await withTempDir(async (directory) => {
    const file = await writeTemp(directory, 'split.csv', text);
    const bytes = await readFile(file);
    const points = await csvSplitPoints(file, { targetBytes, header, skipEmptyLines });
    expect(points.starts.length).toBeGreaterThan(10);
    expect(points.firstRecordFields).toBe(fields);
    expect(points.lines).toHaveLength(points.starts.length);
    expect(points.rows).toHaveLength(points.starts.length);
    // The whole file through the reader (on error: skip, so that blank rows of skipEmptyLines
    // false, which have too few fields, still count as rows).
    const rows = await collect(
      csvSource({ path: file, header, skipEmptyLines, onError: 'skip', delimiter: ',' }),
    );
    const positions = rows.map((row) => positionOf(row)!);
    let exactMatches = 0;
    points.starts.forEach((start, index) => {
      const line = bytes.subarray(0, start).filter((byte) => byte === 10).length + 1;
      expect(points.lines[index], `line of start ${start}`).toBe(line);
      // The first record the reader yields at or after that line has that row (or a later
      // one, when rows there were skipped as bad).
      const next = positions.find((position) => position.line! >= line);
      if (next !== undefined)
        expect(next.row!, `row at line ${line}`).toBeGreaterThanOrEqual(points.rows[index]!);
      const exact = positions.find((position) => position.line === line);
      if (exact !== undefined) {
        expect(exact.row, `row at line ${line}`).toBe(points.rows[index]);
        exactMatches++;
      }
    });
    expect(exactMatches).toBeGreaterThan(points.starts.length / 2);
    // Each range read alone as a stream (after the header's bytes) from its start's line and
    // row: together, the same records at the same positions as the whole file.
    const ranged: unknown[] = [];
    for (const [index, start] of points.starts.entries()) {
      const end = points.starts[index + 1] ?? points.size;
      const piece = Buffer.concat([bytes.subarray(0, points.headerEnd), bytes.subarray(start, end)]);
      const stream = new Blob([piece]).stream();
      const streamStart = { line: points.lines[index]!, row: points.rows[index]! };
      // Without a header, a range gets the whole file's column names (from its first record).
      const names = Array.from({ length: points.firstRecordFields }, (_, column) => `column${column + 1}`);
      const options = {
        stream,
        fileName: file,
        streamStart,
        header: header || names,
        skipEmptyLines,
        delimiter: ',',
      };
      const part = await collect(csvSource({ ...options, onError: 'skip' }));
      ranged.push(...part.map((row) => ({ row, position: positionOf(row) })));
    }
    expect(ranged).toEqual(rows.map((row) => ({ row, position: positionOf(row) })));
  });
}

/** A seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Random records of 3 fields: plain fields, quoted ones holding delimiters, doubled quotes, LF, CRLF
 * and CR, ended by LF or CRLF, with blank and lone-CR lines between them.
 */
function randomCsv(seed: number, records: number): string {
  const next = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const field = (): string =>
    next() < 0.4
      ? `"${Array.from({ length: Math.floor(next() * 6) }, () => pick(['a', ',', '""', '\n', '\r\n', '\r', 'é'])).join('')}"`
      : Array.from({ length: Math.floor(next() * 8) }, () => pick(['x', 'y', ' ', '7'])).join('');
  const lines = ['a,b,c\n'];
  for (let index = 0; index < records; index++) {
    lines.push(`${field()},${field()},${field()}${pick(['\n', '\n', '\r\n'])}`);
    if (next() < 0.05) lines.push(pick(['\n', '\r\n']));
  }
  return lines.join('');
}

describe('csvSplitPoints', () => {
  for (const header of [true, false]) {
    for (const skipEmptyLines of [true, false]) {
      test(`each start's line and row are those the reader gives the whole file (header ${header}, skipEmptyLines ${skipEmptyLines})`, async () => {
        await checkAgainstReader(awkwardCsv(header), { header, skipEmptyLines, targetBytes: 97, fields: 2 });
      });
    }
  }

  test('finds the header after blank lines (LF and CRLF) before it, as the reader skips them', async () => {
    const text = `\n\r\n\n${awkwardCsv(true)}`;
    await checkAgainstReader(text, { header: true, skipEmptyLines: true, targetBytes: 97, fields: 2 });
  });

  test('matches the reader on random records across many 64 KiB reads', async () => {
    for (const seed of [1, 2, 3]) {
      const text = randomCsv(seed, 15_000);
      expect(text.length).toBeGreaterThan(3 * 64 * 1024);
      await checkAgainstReader(text, { header: true, skipEmptyLines: true, targetBytes: 9_000, fields: 3 });
    }
  });
});
