import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { testSource } from '@tfpipe/core/testing';
import { afterAll } from 'vitest';
import { rmSync } from 'node:fs';
import { csvSource } from './csv-source.js';
import type { CsvRow } from './csv-source.js';

const directory = mkdtempSync(path.join(tmpdir(), 'tfpipe-csv-conformance-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let counter = 0;
function file(content: string): string {
  const name = path.join(directory, `f${counter++}.csv`);
  writeFileSync(name, content);
  return name;
}

const large = `id,text\n${Array.from({ length: 50_000 }, (_, index) => `${index},"row, ${index}"`).join('\n')}\n`;

testSource<{ content: string; allowEmpty?: boolean }, CsvRow>({
  name: 'csvSource',
  create: (fixture) => csvSource({ path: file(fixture.content), allowEmpty: fixture.allowEmpty ?? false }),
  fixtures: {
    empty: { content: 'id,text\n', allowEmpty: true },
    ordered: {
      input: { content: 'id,text\n1,a\n2,"b\nc"\n3,d\n' },
      expectedCount: 3,
      keyOf: (row) => row.id,
      expectedKeys: ['1', '2', '3'],
    },
    large: { input: { content: large }, rows: 50_000 },
    bad: {
      input: { content: 'id,text\n1,a\n2\n' },
      expectedCode: 'CSV_ROW_LENGTH',
      positionKeys: ['file', 'line', 'row', 'column'],
      expectedPosition: { line: 3, row: 1, column: 2 },
    },
  },
  openHandles: () => readdirSync('/proc/self/fd').length,
});
