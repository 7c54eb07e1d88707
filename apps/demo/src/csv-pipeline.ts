import { run, type Example, type RunSummary } from '@tfpipe/core';
import { routeRows, splitAssigner } from '@tfpipe/pipeline';
import { csvToExamples } from '@tfpipe/source-csv';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';

/**
 * Which split a record belongs to: 80% train, 20% validation, decided by hashing its `id`. The same
 * id lands in the same split on every run and every machine, whatever the input order.
 */
export const split = splitAssigner({ key: 'id', ratios: { train: 0.8, validation: 0.2 } });

/**
 * CSV → TFRecord with a train/validation split, in one pass: column kinds are inferred, the string
 * `species` column becomes an int64 label through a sorted vocabulary, and each split is written as
 * its own shard set (`train-00000-of-00002.tfrecord`, `validation-…`).
 */
export function csvPipeline(csvFile: string, outputDirectory: string): Promise<RunSummary> {
  return run(
    csvToExamples({ path: csvFile, label: 'species' }),
    routeRows<Example>({
      route: (record, index) => split.assign(record, index),
      names: split.names,
      open: (name) => tfrecordSink({ directory: outputDirectory, prefix: name, shards: 2, overwrite: true }),
    }),
  );
}
