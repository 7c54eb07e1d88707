import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { buildExamples, run, type ExampleSpec } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { csvSource, csvToExamples, type CsvKind } from '@tfpipe/source-csv';
import {
  random,
  removing,
  scaled,
  timeOnce,
  timeRuns,
  type BenchCase,
  type SideContext,
  type SideDefinition,
} from '../harness.js';
import { TFPIPE_BIN, baselineScript, processSide } from '../process-side.js';

const ROWS = 1_000_000;
const BATCH = 1024;
const HEADER = 'id,count,year,x1,x2,x3,x4,city,comment,label\n';
const CITIES = ['Amsterdam', 'Berlin', 'Chicago', 'Delhi', 'São Paulo', 'Zürich', '東京', 'Lagos'];

/** The columns' kinds: core's spec for `buildExamples`, and the CSV schema for `csvToExamples`. */
const SCHEMA = {
  id: 'int64',
  count: 'int64',
  year: 'int64',
  x1: 'float',
  x2: 'float',
  x3: 'float',
  x4: 'float',
  city: 'bytes',
  comment: 'bytes',
  label: 'int64',
} as const satisfies Record<string, CsvKind>;
const SPEC: ExampleSpec = SCHEMA;

function fileName(multiple: number): string {
  return `data-${multiple}x.csv`;
}

/** Writes `rows` rows of 10 columns, with quoted commas, `""` escapes and the odd quoted newline. */
export async function writeCsv(path: string, rows: number): Promise<number> {
  const next = random(3);
  const handle = await open(path, 'w');
  let bytes = 0;
  try {
    let text = HEADER;
    for (let index = 0; index < rows; index++) {
      const comment = index % 50 === 0 ? `"line one\nline ""two"", ${index}"` : `"note ${index % 997}, ok"`;
      text += `${index},${Math.floor(next() * 1000)},${1990 + Math.floor(next() * 35)},${(next() * 100).toFixed(3)},${(next() * 2 - 1).toFixed(5)},${(next() * 1e6).toFixed(1)},${next().toExponential(3)},${CITIES[index % CITIES.length]},${comment},${index % 7}\n`;
      if (text.length > 1 << 20) {
        bytes += (await handle.write(text)).bytesWritten;
        text = '';
      }
    }
    bytes += (await handle.write(text)).bytesWritten;
  } finally {
    await handle.close();
  }
  return bytes;
}

/** A side timing one whole `tfpipe convert` process of the 1x file into `output`, with `flags`. */
function cliSide(label: string, output: string, flags: readonly string[]): SideDefinition {
  return processSide({
    label,
    items: ROWS,
    args: (context) => [
      TFPIPE_BIN,
      'convert',
      join(context.dataDirectory, fileName(1)),
      join(context.workDirectory, output),
      '--quiet',
      ...flags,
    ],
    output: (context) => join(context.workDirectory, output),
  });
}

/** Where {@link convert} writes. */
const outputOf = (context: SideContext, multiple: number): string =>
  join(context.workDirectory, `csv-${multiple}x.tfrecord`);

/** Where {@link convertRows} writes. */
const rowsOutputOf = (context: SideContext): string => join(context.workDirectory, 'csv-rows.tfrecord');

/**
 * CSV → TFRecord in process, the code `tfpipe convert` runs but warm, with the schema given and `fsync: false`:
 * `csvToExamples` into `tfrecordSink`; `byteParser: false` reads every record with the text parser instead.
 */
async function convert(context: SideContext, multiple: number, byteParser = true): Promise<void> {
  const output = outputOf(context, multiple);
  await run(
    csvToExamples({
      path: join(context.dataDirectory, fileName(multiple)),
      batchSize: BATCH,
      schema: SCHEMA,
      byteParser,
    }),
    tfrecordSink({ path: output, fsync: false }),
  );
}

/** One cold run of {@link convert} over the file `multiple` times the size, for its peak RSS. */
function multipleSide(multiple: number): SideDefinition {
  return {
    label: `tfpipe, ${multiple}x input (RSS)`,
    run: (context) =>
      timeOnce(
        scaled(multiple * ROWS, context.scale),
        () => convert(context, multiple),
        'one run',
        removing(outputOf(context, multiple)),
      ),
  };
}

/** The same through row objects: `csvSource` → core's `buildExamples` → `tfrecordSink`. */
async function convertRows(context: SideContext): Promise<void> {
  const output = rowsOutputOf(context);
  await run(
    csvSource({ path: join(context.dataDirectory, fileName(1)), batchSize: BATCH }),
    buildExamples.batches(SPEC),
    tfrecordSink({ path: output, fsync: false }),
  );
}

/**
 * Case d: a generated 1M-row, 10-column CSV → TFRecord, against the parser alone: csvSource with the
 * same batches, drained. The conversion measured is the package's own (`csvToExamples`, CSV's value
 * rules, what `tfpipe convert` runs: records and plain cells read from bytes after the first chunk);
 * the same with the text parser throughout, and the row-object path through `buildExamples`, are
 * reported beside it.
 */
export const csvCase: BenchCase = {
  name: 'csv',
  title: 'd. CSV 1M rows × 10 columns → TFRecord',
  unit: 'rows/s',
  fullOnly: ['ours-5x'],
  async prepare(dataDirectory, scale, full) {
    const notes: string[] = [];
    for (const multiple of full ? [1, 2, 5] : [1, 2]) {
      const bytes = await writeCsv(join(dataDirectory, fileName(multiple)), scaled(ROWS * multiple, scale));
      notes.push(`${multiple}x: ${scaled(ROWS * multiple, scale)} rows, ${(bytes / 1e6).toFixed(0)} MB`);
    }
    return notes;
  },
  sides: {
    ours: {
      label: 'tfpipe csvToExamples → tfrecordSink (in process: schema given, no fsync)',
      run: (context) =>
        timeRuns(
          context.repeats,
          scaled(ROWS, context.scale),
          () => convert(context, 1),
          `schema given, batchSize ${BATCH}`,
          removing(outputOf(context, 1)),
        ),
    },
    text: {
      label: 'the same, byteParser: false (the text parser for every record)',
      run: (context) =>
        timeRuns(
          context.repeats,
          scaled(ROWS, context.scale),
          () => convert(context, 1, false),
          `schema given, batchSize ${BATCH}`,
          removing(outputOf(context, 1)),
        ),
    },
    rows: {
      label: 'csvSource → buildExamples → tfrecordSink (row objects)',
      run: (context) =>
        timeRuns(
          context.repeats,
          scaled(ROWS, context.scale),
          () => convertRows(context),
          `batchSize ${BATCH}`,
          removing(rowsOutputOf(context)),
        ),
    },
    parser: {
      label: 'csvSource (parser) drained',
      run: (context) =>
        timeRuns(
          context.repeats,
          scaled(ROWS, context.scale),
          async () => {
            const reader = csvSource({
              path: join(context.dataDirectory, fileName(1)),
              batchSize: BATCH,
            }).getReader();
            while (!(await reader.read()).done);
          },
          `batchSize ${BATCH}`,
        ),
    },
    cli: cliSide(
      'tfpipe convert data.csv out.tfrecord (the CLI process; kinds inferred)',
      'cli.tfrecord',
      [],
    ),
    'cli-1': cliSide(
      'tfpipe convert data.csv out.tfrecord --threads 1 (the CLI process, one thread for the CSV)',
      'cli-1.tfrecord',
      ['--threads', '1'],
    ),
    'lib-process': processSide({
      label:
        "csvToExamples → tfrecordSink as a node process, the CLI's options (kinds inferred, synced, one thread)",
      items: ROWS,
      args: (context) => [
        baselineScript('csv-convert'),
        join(context.dataDirectory, fileName(1)),
        join(context.workDirectory, 'lib-process.tfrecord'),
      ],
      output: (context) => join(context.workDirectory, 'lib-process.tfrecord'),
    }),
    papaparse: processSide({
      label: 'papaparse parse only (a node process)',
      items: ROWS,
      args: (context) => [
        baselineScript('papaparse-parse'),
        join(context.dataDirectory, fileName(1)),
        String(scaled(ROWS, context.scale)),
      ],
    }),
    'ours-2x': multipleSide(2),
    'ours-5x': multipleSide(5),
  },
  comparisons: [
    { ours: 'ours', baseline: 'parser', target: 0.6 },
    { ours: 'text', baseline: 'parser' },
    { ours: 'rows', baseline: 'parser' },
    { ours: 'ours-2x', baseline: 'parser' },
    // Issue 22's target for the CLI, end to end.
    { ours: 'cli', baseline: 'papaparse', target: 1.0 },
    // The same on one thread: what the CSV thread adds, in the same run.
    { ours: 'cli-1', baseline: 'papaparse' },
    { ours: 'cli', baseline: 'cli-1' },
    // What the CLI adds to the library path, both whole processes with the same options.
    { ours: 'cli-1', baseline: 'lib-process' },
    { ours: 'lib-process', baseline: 'papaparse' },
    { ours: 'ours-5x', baseline: 'parser' },
  ],
};
