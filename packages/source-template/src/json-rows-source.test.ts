import { buildExamples, run, type TfpipeError } from '@tfpipe/core';
import { collect, testSource } from '@tfpipe/core/testing';
import { readExamples, tfrecordSink } from '@tfpipe/sink-tfrecord';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { jsonRowsSource, type JsonRow } from './json-rows-source.js';

const directory = mkdtempSync(path.join(tmpdir(), 'tfpipe-template-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let counter = 0;
function file(content: string): string {
  const name = path.join(directory, `input-${counter++}.jsonl`);
  writeFileSync(name, content);
  return name;
}

const lines = (count: number): string =>
  Array.from({ length: count }, (_, id) => JSON.stringify({ id, name: `row ${id}` })).join('\n');

// The conformance suite every source runs first: empty input, order, backpressure, cancellation
// releasing the file, errors with a code and a position. Keep it passing when you copy this package.
testSource<string, JsonRow>({
  name: 'jsonRowsSource',
  create: (content) => jsonRowsSource({ path: file(content), chunkBytes: 4096 }),
  fixtures: {
    empty: '\n\n',
    ordered: { input: `${lines(5)}\n`, expectedCount: 5, keyOf: (row) => row.id },
    large: { input: lines(20_000), rows: 20_000 },
    bad: {
      input: `{"id":0}\n{"id":1}\n{"id":\n`,
      expectedCode: 'JSON_PARSE',
      positionKeys: ['file', 'line', 'recordIndex'],
      expectedPosition: { line: 3, recordIndex: 2 },
    },
  },
  readAhead: 64,
  openHandles: () => readdirSync('/proc/self/fd').length,
});

test('a line split across chunks, CRLF endings and a missing final newline read whole', async () => {
  const content = '{"text":"ééé long enough to cross a chunk"}\r\n\r\n{"text":"last"}';
  const rows = await collect(jsonRowsSource({ path: file(content), chunkBytes: 7 }));
  expect(rows).toEqual([{ text: 'ééé long enough to cross a chunk' }, { text: 'last' }]);
});

test("a non-object line is JSON_FORM, and onError 'skip' drops it and counts it", async () => {
  const path = file('{"id":0}\n[1,2]\n{"id":2}\n');
  await expect(collect(jsonRowsSource({ path }))).rejects.toMatchObject({
    code: 'JSON_FORM',
    position: { file: path, line: 2 },
  });
  const skipped: TfpipeError[] = [];
  const rows = await collect(
    jsonRowsSource({ path, onError: 'skip', onSkip: (error) => skipped.push(error) }),
  );
  expect(rows).toEqual([{ id: 0 }, { id: 2 }]);
  expect(skipped.map((error) => error.code)).toEqual(['JSON_FORM']);
});

test('bad options fail when the factory is called, and a missing file is INPUT_NOT_FOUND', async () => {
  expect(() => jsonRowsSource({ path: '' })).toThrow(/path must be a non-empty string/);
  expect(() => jsonRowsSource({ path: 'x.jsonl', chunkBytes: 0 })).toThrow(/chunkBytes/);
  await expect(collect(jsonRowsSource({ path: path.join(directory, 'nope.jsonl') }))).rejects.toMatchObject({
    code: 'INPUT_NOT_FOUND',
  });
});

test('rows become Examples with buildExamples and land in a TFRecord file', async () => {
  const output = path.join(directory, 'out.tfrecord');
  const summary = await run(
    jsonRowsSource({ path: file('{"id":7,"tags":["a","b"]}\n{"id":8,"tags":[]}\n') }),
    buildExamples({ id: 'int64', tags: 'bytes' }),
    tfrecordSink({ path: output }),
  );
  expect(summary.recordsWritten).toBe(2);
  const records = [];
  for await (const record of readExamples(output)) records.push(record.features);
  expect(records[0]!.id).toEqual({ kind: 'int64', value: [7n] });
  expect(records[0]!.tags!.value).toHaveLength(2);
  expect(records[1]!.id).toEqual({ kind: 'int64', value: [8n] });
});

test('a line over maxLineBytes is a fatal RECORD_TOO_LARGE naming the line, raised before the line is held whole', async () => {
  const long = JSON.stringify({ id: 2, blob: 'x'.repeat(1 << 20) });
  const input = file(`${lines(2)}\n${long}\n${lines(1)}\n`);
  const rows: JsonRow[] = [];
  let failure: TfpipeError | undefined;
  try {
    for await (const row of jsonRowsSource({ path: input, chunkBytes: 4096, maxLineBytes: 65_536 }))
      rows.push(row);
  } catch (error) {
    failure = error as TfpipeError;
  }
  expect(rows).toHaveLength(2);
  expect(failure?.code).toBe('RECORD_TOO_LARGE');
  expect(failure?.position).toMatchObject({ file: input, line: 3 });
  expect(failure?.message).toContain('over 65536 bytes (maxLineBytes)');
});

test('a 16 MiB line in 4 KiB chunks is split in linear time (the split of the joined text was quadratic)', async () => {
  const input = file(`${JSON.stringify({ id: 0, blob: 'x'.repeat(16 << 20) })}\n`);
  const started = performance.now();
  const rows = await collect(jsonRowsSource({ path: input, chunkBytes: 4096 }));
  expect(rows).toHaveLength(1);
  expect(performance.now() - started).toBeLessThan(20_000);
});
