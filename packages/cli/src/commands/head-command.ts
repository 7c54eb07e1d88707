import type { Command } from '../command.js';
import { READ_FLAGS, READ_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe head`: the first records as JSON lines. */
export const headCommand: Command = {
  name: 'head',
  summary: 'print the first records as JSON lines (int64 exact)',
  usage: `Usage: tfpipe head FILE... [options]

Prints the first records of TFRecord files (paths or globs, read in order) as JSON lines: protobuf's
JSON form of tf.train.Example (or SequenceExample), int64 values as exact decimal strings. Reading
stops at the last record printed.

Options:
  -n, --records N       records to print (default 10)
${READ_FLAGS_HELP}`,
  options: { records: { type: 'string', short: 'n' }, ...READ_FLAGS },
  load: async () => (await import('./head.js')).headFiles,
};
