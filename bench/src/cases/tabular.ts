import { createReadStream } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildExamples, run } from '@tfpipe/core';
import { fixedLen, parseExample } from '@tfpipe/dataset';
import type { ExampleParseSpec } from '@tfpipe/dataset';
import { tfrecordDataset } from '@tfpipe/dataset/node';
import { createTfrecordWriter, readExamples, tfrecordSink, tfrecordSource } from '@tfpipe/sink-tfrecord';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { removing, timeRuns, scaled, type BenchCase, type SideContext, type SideResult } from '../harness.js';
import {
  FLOAT_COLUMNS,
  INT_COLUMNS,
  STRING_COLUMNS,
  TABULAR_SPEC,
  batchSource,
  rowSource,
  tabularRows,
} from './tabular-rows.js';

const ROWS = 100_000;
/** The npm `tfrecord` package writes ~5k records/s: it gets the first 10% of the rows, and its rate is compared. */
const NPM_ROWS = 10_000;
const BATCH = 1024;
const FILE = 'tabular.tfrecord';

/** The tabular file's parse spec for @tfpipe/dataset: every column a scalar, int64 kept exact. */
const PARSE_SPEC: ExampleParseSpec = Object.fromEntries([
  ...INT_COLUMNS.map((name) => [name, fixedLen([], 'int64')] as const),
  ...FLOAT_COLUMNS.map((name) => [name, fixedLen([], 'float32')] as const),
  ...STRING_COLUMNS.map((name) => [name, fixedLen([], 'string')] as const),
]);

async function prepareTabular(dataDirectory: string, scale: number): Promise<readonly string[]> {
  const rows = tabularRows(scaled(ROWS, scale));
  const writer = await createTfrecordWriter({ path: join(dataDirectory, FILE), fsync: false });
  const built: unknown[] = [];
  await batchSource(rows, BATCH)
    .pipeThrough(buildExamples.batches(TABULAR_SPEC))
    .pipeTo(new WritableStream({ write: (examples) => void built.push(examples) }));
  for (const examples of built) await writer.write(examples as never);
  const report = await writer.close();
  return [`${report.records} records, ${((report.bytes ?? 0) / 1e6).toFixed(1)} MB`];
}

async function ours(context: SideContext, batchSize: number): Promise<SideResult> {
  const rows = tabularRows(scaled(ROWS, context.scale));
  const path = join(context.workDirectory, 'ours.tfrecord');
  return timeRuns(
    context.repeats,
    rows.length,
    async () => {
      if (batchSize === 1)
        await run(rowSource(rows), buildExamples(TABULAR_SPEC), tfrecordSink({ path, fsync: false }));
      else
        await run(
          batchSource(rows, batchSize),
          buildExamples.batches(TABULAR_SPEC),
          tfrecordSink({ path, fsync: false }),
        );
    },
    batchSize === 1 ? 'one row per chunk' : `batches of ${batchSize} rows, fsync off`,
    removing(path),
  );
}

interface NpmTfrecord {
  createBuilder(): {
    setInteger(name: string, value: number): void;
    setFloat(name: string, value: number): void;
    setBinary(name: string, value: Uint8Array): void;
    releaseExample(): unknown;
  };
  createWriter(
    path: string,
  ): Promise<{ writeExample(example: unknown): Promise<void>; close(): Promise<void> }>;
}

interface NpmTfrecordReading {
  createReader(path: string): Promise<{ readExample(): Promise<unknown>; close(): Promise<void> }>;
}

/** Drains `tfrecordDataset(path).parse(PARSE_SPEC)` and checks it parsed `records` rows. */
async function drainParse(path: string, records: number, workers: number): Promise<void> {
  let count = 0;
  for await (const batch of tfrecordDataset(path).parse(PARSE_SPEC, { batchSize: BATCH, workers }))
    count += batch.int_0!.shape[0]!;
  if (count !== records) throw new Error(`parsed ${count} records, expected ${records}`);
}

/** Case a: 100k tabular rows (10 int64, 8 float, 2 strings) from row objects to one file. */
export const tabularCase: BenchCase = {
  name: 'tabular',
  title: 'a. 100k tabular rows → one TFRecord file',
  unit: 'records/s',
  prepare: (dataDirectory, scale) => prepareTabular(dataDirectory, scale),
  sides: {
    ours: { label: 'tfpipe (batched)', run: (context) => ours(context, BATCH) },
    'ours-unbatched': { label: 'tfpipe (1 row/chunk)', run: (context) => ours(context, 1) },
    'npm-tfrecord': {
      label: 'npm tfrecord',
      async run(context) {
        const rows = tabularRows(scaled(NPM_ROWS, context.scale));
        const tfrecord = (await import('tfrecord')) as unknown as NpmTfrecord;
        const path = join(context.workDirectory, 'npm.tfrecord');
        const encoder = new TextEncoder();
        return timeRuns(
          context.repeats,
          rows.length,
          async () => {
            const writer = await tfrecord.createWriter(path);
            const builder = tfrecord.createBuilder();
            for (const row of rows) {
              for (const name of INT_COLUMNS) builder.setInteger(name, row[name] as number);
              for (const name of FLOAT_COLUMNS) builder.setFloat(name, row[name] as number);
              for (const name of STRING_COLUMNS) builder.setBinary(name, encoder.encode(row[name] as string));
              await writer.writeExample(builder.releaseExample());
            }
            await writer.close();
          },
          `first ${rows.length} rows`,
        );
      },
    },
    writefile: {
      label: 'fs.writeFile (same bytes)',
      async run(context) {
        const bytes = await readFile(join(context.dataDirectory, FILE));
        const path = join(context.workDirectory, 'raw.tfrecord');
        const records = scaled(ROWS, context.scale);
        return timeRuns(
          context.repeats,
          records,
          () => writeFile(path, bytes),
          `${(bytes.length / 1e6).toFixed(1)} MB in one call`,
          removing(path),
        );
      },
    },
  },
  comparisons: [
    { ours: 'ours', baseline: 'npm-tfrecord', target: 40 },
    { ours: 'ours', baseline: 'writefile', target: 0.25 },
    { ours: 'ours-unbatched', baseline: 'writefile' },
  ],
};

/** Case c: reading, verifying (both CRCs) and decoding case a's file, against a raw read. */
export const readCase: BenchCase = {
  name: 'read',
  title: 'c. read + verify + decode the tabular file',
  unit: 'records/s',
  prepare: (dataDirectory, scale) => prepareTabular(dataDirectory, scale),
  sides: {
    ours: {
      label: 'tfpipe readExamples',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        const records = scaled(ROWS, context.scale);
        return timeRuns(context.repeats, records, async () => {
          let count = 0;
          for await (const example of readExamples(path)) if (example.features !== undefined) count++;
          if (count !== records) throw new Error(`read ${count} records, expected ${records}`);
        });
      },
    },
    parse: {
      label: 'tfpipe dataset: tfrecordSource + parseExample, batches of 1024',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        const records = scaled(ROWS, context.scale);
        const parser = parseExample(PARSE_SPEC);
        return timeRuns(context.repeats, records, async () => {
          let count = 0;
          let batch: TfRecord[] = [];
          for await (const record of tfrecordSource({ paths: [path] })) {
            batch.push(record);
            if (batch.length === BATCH) {
              count += parser.parse(batch).int_0!.shape[0]!;
              batch = [];
            }
          }
          if (batch.length > 0) count += parser.parse(batch).int_0!.shape[0]!;
          if (count !== records) throw new Error(`parsed ${count} records, expected ${records}`);
        });
      },
    },
    dataset: {
      label: 'tfpipe dataset: tfrecordDataset(file).parse(spec, { batchSize: 1024 }), CRCs verified',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        const records = scaled(ROWS, context.scale);
        return timeRuns(context.repeats, records, () => drainParse(path, records, 1));
      },
    },
    'dataset-workers': {
      label: 'tfpipe dataset: the same with { workers: 2 }',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        const records = scaled(ROWS, context.scale);
        return timeRuns(
          context.repeats,
          records,
          () => drainParse(path, records, 2),
          'threads kept between passes (one spec)',
        );
      },
    },
    'npm-tfrecord': {
      label: 'npm tfrecord: createReader + readExample (protobuf.js objects)',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        const records = Math.min(scaled(NPM_ROWS, context.scale), scaled(ROWS, context.scale));
        const tfrecord = (await import('tfrecord')) as unknown as NpmTfrecordReading;
        return timeRuns(
          context.repeats,
          records,
          async () => {
            const reader = await tfrecord.createReader(path);
            let count = 0;
            while (count < records && (await reader.readExample()) !== null) count++;
            await reader.close();
            if (count !== records) throw new Error(`read ${count} records, expected ${records}`);
          },
          `first ${records} records, CRCs verified`,
        );
      },
    },
    raw: {
      label: 'fs.readFile',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        return timeRuns(context.repeats, scaled(ROWS, context.scale), async () => {
          await readFile(path);
        });
      },
    },
  },
  comparisons: [
    { ours: 'ours', baseline: 'raw' },
    { ours: 'parse', baseline: 'raw' },
    { ours: 'parse', baseline: 'ours' },
    { ours: 'dataset', baseline: 'raw', target: 0.3 },
    { ours: 'dataset', baseline: 'ours' },
    { ours: 'dataset-workers', baseline: 'dataset' },
    { ours: 'dataset-workers', baseline: 'raw', target: 0.3 },
    { ours: 'dataset', baseline: 'npm-tfrecord', target: 20 },
  ],
};

/** The 2 GB file of the memory case: case a's file repeated. */
const BIG_FILE = 'big.tfrecord';
const BIG_BYTES = 2 * 1024 ** 3;
/** The most the 2 GB read may hold resident, bytes. */
const MAX_BIG_RSS_BYTES = 300e6;

/**
 * Case c2: `parse` over a 2 GB file (case a's records, repeated), to show that reading stays in
 * bounded memory (the issue: peak RSS under 300 MB); the baseline streams the same file.
 */
export const bigReadCase: BenchCase = {
  name: 'read-2gb',
  title: 'c2. parse a 2 GB file in bounded memory',
  unit: 'records/s',
  async prepare(dataDirectory, scale) {
    const notes = await prepareTabular(dataDirectory, scale);
    const tabular = await readFile(join(dataDirectory, FILE));
    const copies = Math.max(1, Math.round((BIG_BYTES * scale) / tabular.length));
    const file = await open(join(dataDirectory, BIG_FILE), 'w');
    try {
      for (let copy = 0; copy < copies; copy++) await file.write(tabular);
    } finally {
      await file.close();
    }
    return [...notes, `${copies} copies: ${((copies * tabular.length) / 1e9).toFixed(2)} GB`];
  },
  sides: {
    dataset: {
      label: 'tfpipe dataset: tfrecordDataset(file).parse(spec, { batchSize: 1024 }), CRCs verified',
      async run(context) {
        const path = join(context.dataDirectory, BIG_FILE);
        const records = await bigRecords(context);
        const result = await timeRuns(1, records, () => drainParse(path, records, 1));
        const peak = process.resourceUsage().maxRSS * 1024;
        // The bound, checked here so that the run fails rather than prints a figure past it.
        if (peak > MAX_BIG_RSS_BYTES)
          throw new Error(
            `peak RSS ${(peak / 1e6).toFixed(0)} MB, over the ${MAX_BIG_RSS_BYTES / 1e6} MB bound`,
          );
        return { ...result, note: `peak RSS checked ≤ ${MAX_BIG_RSS_BYTES / 1e6} MB; ${result.note}` };
      },
    },
    stream: {
      label: 'fs.createReadStream drained',
      async run(context) {
        const path = join(context.dataDirectory, BIG_FILE);
        return timeRuns(1, await bigRecords(context), async () => {
          for await (const chunk of createReadStream(path)) void chunk;
        });
      },
    },
  },
  comparisons: [{ ours: 'dataset', baseline: 'stream' }],
};

/** Records in the 2 GB file: its copies of case a's file times case a's rows. */
async function bigRecords(context: SideContext): Promise<number> {
  const [tabular, big] = await Promise.all(
    [FILE, BIG_FILE].map((name) => stat(join(context.dataDirectory, name))),
  );
  return (big!.size / tabular!.size) * scaled(ROWS, context.scale);
}
