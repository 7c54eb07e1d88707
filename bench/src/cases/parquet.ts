import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildExamples, run } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { parquetExampleSpec, parquetSchema, parquetSource } from '@tfpipe/source-parquet';
import { parquetWriteFile } from 'hyparquet-writer';
import { random, removing, scaled, timeRuns, type BenchCase } from '../harness.js';
import { readEveryRowGroup } from '../hyparquet-alone.js';
import { TFPIPE_BIN, baselineScript, processSide } from '../process-side.js';

const ROWS = 1_000_000;
const ROW_GROUP = 100_000;
const BATCH = 1024;
const FILE = 'data.parquet';
const CITIES = ['Amsterdam', 'Berlin', 'Chicago', 'Delhi', 'Espoo', 'Fukuoka', 'Lagos', 'Lima'];

/** Case f: a generated 1M-row, 10-column snappy Parquet file with 100k-row groups → TFRecord. */
export const parquetCase: BenchCase = {
  name: 'parquet',
  title: 'f. Parquet 1M rows × 10 columns (snappy) → TFRecord',
  unit: 'rows/s',
  async prepare(dataDirectory, scale) {
    const rows = scaled(ROWS, scale);
    const next = random(5);
    const column = <T>(make: (index: number) => T): T[] =>
      Array.from({ length: rows }, (_, index) => make(index));
    const path = join(dataDirectory, FILE);
    parquetWriteFile({
      filename: path,
      codec: 'SNAPPY',
      rowGroupSize: ROW_GROUP,
      columnData: [
        { name: 'id', type: 'INT64', data: column((index) => BigInt(index)) },
        { name: 'count', type: 'INT32', data: column(() => Math.floor(next() * 1000)) },
        { name: 'year', type: 'INT32', data: column(() => 1990 + Math.floor(next() * 35)) },
        { name: 'x1', type: 'DOUBLE', data: column(() => next() * 100) },
        { name: 'x2', type: 'DOUBLE', data: column(() => next() * 2 - 1) },
        { name: 'x3', type: 'FLOAT', data: column(() => next() * 1e6) },
        { name: 'x4', type: 'DOUBLE', data: column(() => next()) },
        { name: 'city', type: 'STRING', data: column((index) => CITIES[index % CITIES.length]!) },
        { name: 'comment', type: 'STRING', data: column((index) => `note ${index % 997}, ok`) },
        { name: 'label', type: 'INT32', data: column((index) => index % 7) },
      ],
    });
    const { size } = await stat(path);
    return [`${rows} rows, ${Math.ceil(rows / ROW_GROUP)} row groups, ${(size / 1e6).toFixed(1)} MB`];
  },
  sides: {
    ours: {
      label: 'tfpipe parquet→tfrecord',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        const output = join(context.workDirectory, 'parquet.tfrecord');
        const spec = parquetExampleSpec(await parquetSchema(path));
        return timeRuns(
          context.repeats,
          scaled(ROWS, context.scale),
          async () => {
            await run(
              parquetSource({ path, batchSize: BATCH }),
              buildExamples.batches(spec),
              tfrecordSink({ path: output, fsync: false }),
            );
          },
          `parquetSource batchSize ${BATCH}`,
          removing(output),
        );
      },
    },
    hyparquet: {
      label: 'hyparquet alone (row group by row group)',
      async run(context) {
        const path = join(context.dataDirectory, FILE);
        return timeRuns(context.repeats, scaled(ROWS, context.scale), () => readEveryRowGroup(path));
      },
    },
    cli: processSide({
      label: 'tfpipe convert data.parquet out.tfrecord (the CLI process)',
      items: ROWS,
      args: (context) => [
        TFPIPE_BIN,
        'convert',
        join(context.dataDirectory, FILE),
        join(context.workDirectory, 'cli.tfrecord'),
        '--quiet',
      ],
      output: (context) => join(context.workDirectory, 'cli.tfrecord'),
    }),
    'hyparquet-process': processSide({
      label: 'hyparquet alone (a node process)',
      items: ROWS,
      args: (context) => [baselineScript('hyparquet-read'), join(context.dataDirectory, FILE)],
    }),
  },
  comparisons: [
    { ours: 'ours', baseline: 'hyparquet', target: 0.5 },
    // Issue 22's target for the CLI, end to end.
    { ours: 'cli', baseline: 'hyparquet-process', target: 0.6 },
  ],
};
