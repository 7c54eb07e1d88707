import type { RunSummary } from '@tfpipe/core';
import * as path from 'node:path';
import { csvPipeline } from './csv-pipeline.js';
import { formatReport, type DatasetOutput, type DatasetReport } from './format-report.js';
import { formatImageBatches, readImageBatches, type ImageBatches } from './image-batches.js';
import { imagesPipeline } from './images-pipeline.js';
import { parquetPipeline } from './parquet-pipeline.js';
import { readBack } from './read-back.js';
import { ensureSampleData, SAMPLE } from './sample-data.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Where sample inputs (`data/`) and outputs (`tfrecords/`) go; inputs are reused when present. */
  readonly directory: string;
  /** Where the printed report goes. @default console.log */
  readonly log?: (text: string) => void;
}

/** What the demo did: one report per pipeline, and every check that failed (none on success). */
export interface DemoResult {
  readonly csv: DatasetReport;
  readonly images: DatasetReport;
  readonly parquet: DatasetReport;
  /** The image shards read back into decoded batches. */
  readonly imageBatches: ImageBatches;
  readonly failures: readonly string[];
  readonly elapsedMs: number;
}

const shardPaths = (...summaries: RunSummary[]): string[] =>
  summaries.flatMap((summary) => summary.shards.map((shard) => shard.path));

/** One output row per split: the split's shards, records and bytes; the run's rate and skipped count. */
function splitOutputs(summary: RunSummary): DatasetOutput[] {
  const splits = (summary.details.splits ?? {}) as Record<string, { records: number }>;
  return Object.keys(splits).map((name) => {
    const shards = summary.shards.filter((shard) => path.basename(shard.path).startsWith(`${name}-`));
    return {
      label: name,
      summary,
      records: shards.reduce((sum, shard) => sum + shard.records, 0),
      shards: shards.length,
      bytes: shards.reduce((sum, shard) => sum + shard.bytes, 0),
    };
  });
}

/** Checks one dataset: the read-back agrees with the run and with the generated input, nothing was skipped. */
function check(report: DatasetReport, expectedRecords: number): string[] {
  const failures: string[] = [];
  // Every output of a dataset comes from one run.
  const { summary } = report.outputs[0]!;
  const written = summary.recordsWritten;
  const skipped = summary.skipped;
  const inShards = report.outputs.reduce(
    (sum, output) => sum + (output.records ?? output.summary.recordsWritten),
    0,
  );
  if (inShards !== written)
    failures.push(`${report.title}: the shards hold ${inShards} records, the run wrote ${written}`);
  if (!report.readBack.ok) failures.push(`${report.title}: ${report.readBack.problem ?? 'read back failed'}`);
  if (written !== expectedRecords)
    failures.push(`${report.title}: wrote ${written} records, expected ${expectedRecords}`);
  if (report.readBack.records !== written) {
    failures.push(`${report.title}: read back ${report.readBack.records} records, wrote ${written}`);
  }
  if (skipped !== 0) failures.push(`${report.title}: ${skipped} records skipped`);
  return failures;
}

/** Checks the decoded batches: every image once, 64 × 64 RGB, not blank. */
function checkImageBatches(batches: ImageBatches, expectedImages: number): string[] {
  const failures: string[] = [];
  const images = batches.imageShapes.reduce((sum, shape) => sum + shape[0]!, 0);
  if (images !== expectedImages)
    failures.push(`image batches: decoded ${images} images, expected ${expectedImages}`);
  if (batches.imageShapes.some((shape) => shape.slice(1).join() !== '64,64,3'))
    failures.push('image batches: an image is not 64 × 64 × 3');
  if (!(batches.meanPixel > 0)) failures.push('image batches: every pixel is 0');
  return failures;
}

/**
 * Generates the sample data (first run only), runs the three pipelines, reads every output back
 * with CRCs verified, and prints a report per pipeline.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const log = options.log ?? ((text: string) => console.log(text));
  const started = performance.now();
  const inputs = await ensureSampleData(path.join(options.directory, 'data'));
  const output = (name: string): string => path.join(options.directory, 'tfrecords', name);

  const csvSummary = await csvPipeline(inputs.csvFile, output('flowers'));
  const csvFiles = shardPaths(csvSummary);
  const csv: DatasetReport = {
    title: 'CSV → TFRecord, train/validation split (src/csv-pipeline.ts)',
    outputs: splitOutputs(csvSummary),
    readBack: await readBack(
      csvFiles,
      'none',
      shardPaths(csvSummary).filter((file) => path.basename(file).startsWith('train-')),
    ),
    files: csvFiles,
  };

  const imageSummary = await imagesPipeline(inputs.imageFolder, output('shapes'));
  const imageFiles = shardPaths(imageSummary);
  const images: DatasetReport = {
    title: 'Image class folders → 3 sharded TFRecords (src/images-pipeline.ts)',
    outputs: [{ label: 'images', summary: imageSummary }],
    readBack: await readBack(imageFiles),
    files: [...imageFiles, path.join(output('shapes'), 'labels.txt')],
  };
  const imageBatches = await readImageBatches(imageFiles);

  const parquetSummary = await parquetPipeline(inputs.parquetFile, output('weather'));
  const parquetFiles = shardPaths(parquetSummary);
  const parquet: DatasetReport = {
    title: 'Parquet → gzip TFRecord (src/parquet-pipeline.ts)',
    outputs: [{ label: 'weather', summary: parquetSummary }],
    readBack: await readBack(parquetFiles, 'gzip'),
    files: parquetFiles,
  };

  const failures = [
    ...check(csv, SAMPLE.csvRows),
    ...check(images, SAMPLE.classes.length * SAMPLE.imagesPerClass),
    ...check(parquet, SAMPLE.parquetRows),
    ...checkImageBatches(imageBatches, SAMPLE.classes.length * SAMPLE.imagesPerClass),
  ];
  // `pnpm demo` runs this in apps/demo; paths read best relative to where the user typed it.
  const base = process.env.INIT_CWD ?? process.cwd();
  const relative = (file: string): string => {
    const shorter = path.relative(base, file);
    return shorter.startsWith('..') ? file : shorter;
  };
  for (const report of [csv, images, parquet]) log(formatReport(report, relative));
  log(formatImageBatches(imageBatches));
  const elapsedMs = performance.now() - started;
  log(`Inputs in ${relative(path.dirname(inputs.csvFile))}, outputs in ${relative(output(''))}.`);
  log(
    failures.length === 0
      ? `All three pipelines verified in ${(elapsedMs / 1000).toFixed(1)} s.`
      : `FAILED:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`,
  );
  return { csv, images, parquet, imageBatches, failures, elapsedMs };
}
