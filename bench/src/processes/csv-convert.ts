/**
 * Process for case d: the library path with the options `tfpipe convert data.csv out.tfrecord --threads 1`
 * gives it (kinds inferred from the first 1,000 rows, batches of 1,024, the output synced before its
 * rename), without the CLI: beside the CLI's side it shows what the CLI adds to the library.
 */
import { run } from '@tfpipe/core';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import { csvToExamples } from '@tfpipe/source-csv';

const [path, output] = process.argv.slice(2);
await run(csvToExamples({ path: path!, batchSize: 1024, threads: 1 }), tfrecordSink({ path: output! }));
