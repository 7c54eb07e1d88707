import type { Command } from '../command.js';
import { READ_FLAGS, READ_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe head`: the first records as JSON lines. */
export const headCommand: Command = {
  name: 'head',
  summary: 'print the first records as JSON lines (int64 exact); --spec: parsed batches',
  usage: `Usage: tfpipe head FILE... [options]

Prints the first records of TFRecord files (paths or globs, read in order) as JSON lines: protobuf's
JSON form of tf.train.Example (or SequenceExample), int64 values as exact decimal strings. Reading
stops at the last record printed.

With --spec, the records are parsed with TensorFlow's parse_example semantics into typed tensors
(@tfpipe/dataset) and printed one batch per line: each output's kind, dtype, shape (denseShape and
indices for varLen, rowSplits for ragged) and data, int64 as exact decimal strings, bytes as base64.

Options:
  -n, --records N       records to print (default 10)
  --spec FILE           a JSON spec file (tfpipe schema --format spec writes one): print parsed batches
  --batch N             records per parsed batch, with --spec (default 1)
${READ_FLAGS_HELP}`,
  options: {
    records: { type: 'string', short: 'n' },
    spec: { type: 'string' },
    batch: { type: 'string' },
    ...READ_FLAGS,
  },
  load: async () => (await import('./head.js')).headFiles,
};
