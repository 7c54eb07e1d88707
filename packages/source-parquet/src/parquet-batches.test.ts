/* eslint-disable @typescript-eslint/no-explicit-any -- rows are compared as plain objects */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildExamples, encodeExample, positionOf, reportOf, run } from '@tfpipe/core';
import type { Example, TfpipeError } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { parquetWriteFile } from 'hyparquet-writer';
import { collect } from '@tfpipe/core/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parquetExampleSpec } from './parquet-example-spec.js';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';
import { plugin } from './plugin.js';
import type { ParquetSourceOptions } from './node/parquet-source.js';
import { PARQUET_CORPUS } from '../../../test-support/corpus.js';

const corpus = PARQUET_CORPUS;
const ROWS = 2500;
let directory: string;
let file: string;

/** One row per chunk (the options never set batchSize). */
async function rows(options: Omit<ParquetSourceOptions, 'batchSize'>): Promise<Record<string, any>[]> {
  return collect(parquetSource(options));
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-batches-'));
  file = path.join(directory, 'rows.parquet');
  parquetWriteFile({
    filename: file,
    rowGroupSize: 1000,
    columnData: [
      { name: 'id', type: 'INT64', data: Array.from({ length: ROWS }, (_, index) => BigInt(index)) },
      { name: 'x', type: 'DOUBLE', data: Array.from({ length: ROWS }, (_, index) => index / 8) },
      { name: 'city', type: 'STRING', data: Array.from({ length: ROWS }, (_, index) => `c${index % 7}`) },
    ],
  });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('parquetSource with batchSize', () => {
  test('the same rows with the same positions as one row per chunk, in full batches across row groups', async () => {
    const single = await rows({ path: file });
    expect(single).toHaveLength(ROWS);
    for (const [batchSize, decodeRows] of [
      [1, undefined],
      [7, undefined],
      [256, undefined],
      [1000, undefined],
      [4096, undefined],
      [300, 128],
    ] as const) {
      const stream = parquetSource({ path: file, batchSize, ...(decodeRows ? { decodeRows } : {}) });
      const batches = await collect(stream);
      expect(batches.every((batch) => Array.isArray(batch))).toBe(true);
      expect(batches.slice(0, -1).every((batch) => batch.length === batchSize)).toBe(true);
      const flat = batches.flat();
      expect(flat.map((row) => ({ ...row }))).toEqual(single.map((row) => ({ ...row })));
      expect(flat.map((row) => positionOf(row))).toEqual(single.map((row) => positionOf(row)));
      expect(reportOf(stream)!.records).toBe(ROWS);
    }
    expect(positionOf(single[1234]!)).toEqual({ file, rowGroup: 1, row: 1234, recordIndex: 1234 });
    expect(Object.keys(single[0]!)).toEqual(['id', 'x', 'city']);
    expect(JSON.stringify({ ...single[0], id: 0 })).toBe('{"id":0,"x":0,"city":{"0":99,"1":48}}');
  });

  test('decodes a row group only when asked, and cancel mid-file closes the file', async () => {
    const before = (await readdir('/proc/self/fd')).length;
    const stream = parquetSource({ path: file, batchSize: 100 });
    const reader = stream.getReader();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reportOf(stream)?.details?.rowGroups).toBe(0);
    const first = await reader.read();
    expect(first.value?.map((row) => row.id)).toEqual(
      Array.from({ length: 100 }, (_, index) => BigInt(index)),
    );
    await reader.read();
    expect(reportOf(stream)?.details?.rowGroups).toBe(1);
    expect((await readdir('/proc/self/fd')).length).toBe(before + 1);
    await reader.cancel();
    expect((await readdir('/proc/self/fd')).length).toBe(before);
  });

  test("onError 'skip' drops single rows inside a batch (a null inside a list)", async () => {
    const input = path.join(corpus, 'list_columns.parquet');
    const skipped: TfpipeError[] = [];
    const all = await rows({ path: input, onError: 'skip' });
    const stream = parquetSource({
      path: input,
      batchSize: 2,
      onError: 'skip',
      onSkip: (error) => skipped.push(error),
    });
    const flat = (await collect(stream)).flat();
    expect(skipped.map((error) => [error.code, error.position.row])).toEqual([
      ['PARQUET_UNSUPPORTED', 1],
      ['PARQUET_UNSUPPORTED', 2],
    ]);
    expect(flat.map((row) => positionOf(row)?.row)).toEqual(all.map((row) => positionOf(row)?.row));
    expect(flat.map((row) => positionOf(row)?.row)).not.toContain(1);
    expect(reportOf(stream)!.records).toBe(flat.length);
    expect(reportOf(stream)!.skipped).toBe(2);
  });

  test('batches → buildExamples.batches → tfrecordSink writes the bytes of the unbatched run', async () => {
    const spec = parquetExampleSpec(await parquetSchema(file));
    const single = path.join(directory, 'single.tfrecord');
    const batched = path.join(directory, 'batched.tfrecord');
    await run(parquetSource({ path: file }), buildExamples(spec), tfrecordSink({ path: single }));
    const summary = await run(
      parquetSource({ path: file, batchSize: 512 }),
      buildExamples.batches(spec),
      tfrecordSink({ path: batched }),
    );
    expect(summary.recordsRead).toBe(ROWS);
    expect(summary.recordsWritten).toBe(ROWS);
    expect(Buffer.compare(await readFile(batched), await readFile(single))).toBe(0);
  });

  test('a bad batchSize fails at once with INVALID_OPTION', () => {
    expect(() => parquetSource({ path: file, batchSize: 0 })).toThrow(
      /parquetSource option batchSize: expected a whole number ≥ 1, got 0/,
    );
  });
});

describe('the Parquet plugin', () => {
  const context = { resolvePath: (input: string) => input, onError: 'fail' as const };
  const hex = (example: Example): string => Buffer.from(encodeExample(example)).toString('hex');

  /** The chunks the plugin's source emits, and the Examples its `toExamples` builds from them. */
  async function opened(fieldsRead: boolean | undefined) {
    const source = await plugin.create(
      { path: file },
      { ...context, ...(fieldsRead === undefined ? {} : { fieldsRead }) },
    );
    const chunks: unknown[] = await collect(source.readable as ReadableStream<unknown>);
    const writer = source.toExamples!();
    const built = collect(writer.readable);
    const input = writer.writable.getWriter();
    for (const chunk of chunks) await input.write(chunk as never);
    await input.close();
    return { chunks, examples: (await built).flat() };
  }

  /**
   * What a run makes of `options` under `onError: 'skip'`: the Examples' bytes, the skipped errors
   * (of every stage, in row order) and the rows read. `fieldsRead: false` is the plugin's own
   * encoding; otherwise its rows go through its `toExamples`.
   */
  async function outcome(options: { path: string; missing?: 'error' }, fieldsRead: boolean) {
    const source = await plugin.create(options, { ...context, onError: 'skip', fieldsRead });
    let examples: Example[];
    const reports = [source.readable];
    if (fieldsRead) {
      const builder = source.toExamples!();
      reports.push(builder as never);
      examples = (await collect(source.readable.pipeThrough(builder))) as Example[];
    } else {
      expect(source.output).toBe('examples');
      expect(source.toExamples).toBeUndefined();
      examples = (await collect(source.readable as ReadableStream<unknown>)).flat() as Example[];
    }
    const errors = reports
      .flatMap((stream) => reportOf(stream)!.skippedErrors ?? [])
      .sort((left, right) => left.position.row! - right.position.row!)
      .map((error) => [error.code, error.stage, error.position, error.message]);
    return { bytes: examples.map(hex), errors, read: reportOf(source.readable)!.records };
  }

  test('emits the Examples themselves, in batches, when no stage reads the rows’ fields', async () => {
    const rowByRow = await opened(undefined);
    expect(rowByRow.chunks).toHaveLength(ROWS);
    expect(rowByRow.chunks.some((chunk) => Array.isArray(chunk))).toBe(false);
    const source = await plugin.create({ path: file }, { ...context, fieldsRead: false });
    expect(source.output).toBe('examples');
    const batches = (await collect(source.readable as ReadableStream<unknown>)) as Example[][];
    expect(batches.map((batch) => batch.length)).toEqual([1024, 1024, 452]);
    expect(batches.flat().map(hex)).toEqual((rowByRow.examples as Example[]).map(hex));
    expect(reportOf(source.readable)!.records).toBe(ROWS);
    expect((await opened(true)).chunks).toHaveLength(ROWS);
  });

  test('its own Examples skip the rows, with the errors, that rows through buildExamples do', async () => {
    const nullable = path.join(directory, 'nullable.parquet');
    parquetWriteFile({
      filename: nullable,
      columnData: [
        { name: 'n', type: 'INT64', data: [1n, null, 3n, null, 2n ** 60n] },
        { name: 's', type: 'STRING', data: ['a', 'b', null, 'd', 'é'] },
      ],
    });
    const inputs = [
      { path: file },
      // a null inside a list: the source's own PARQUET_UNSUPPORTED
      { path: path.join(corpus, 'list_columns.parquet') },
      // nulls under missing 'error': buildExamples' FEATURE_MISSING
      { path: nullable, missing: 'error' as const },
      { path: nullable },
    ];
    for (const options of inputs) {
      const expected = await outcome(options, true);
      expect(await outcome(options, false), options.path).toEqual(expected);
    }
    expect((await outcome(inputs[1]!, false)).errors.map(([code]) => code)).toEqual([
      'PARQUET_UNSUPPORTED',
      'PARQUET_UNSUPPORTED',
    ]);
    const missing = await outcome(inputs[2]!, false);
    expect(missing.errors.map(([code, , position]) => [code, position])).toEqual([
      ['FEATURE_MISSING', { file: nullable, rowGroup: 0, row: 1, recordIndex: 1, field: 'n' }],
      ['FEATURE_MISSING', { file: nullable, rowGroup: 0, row: 2, recordIndex: 2, field: 's' }],
      ['FEATURE_MISSING', { file: nullable, rowGroup: 0, row: 3, recordIndex: 3, field: 'n' }],
    ]);
    expect([missing.bytes.length, missing.read]).toEqual([2, 5]);
  });
});
