import type { Command } from '../command.js';
import { READ_FLAGS, READ_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe inspect`: a readable view of records, or their JSON form. */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'show records: feature names, kinds and first values (or --json lines)',
  usage: `Usage: tfpipe inspect FILE... [options]

Shows the records of TFRecord files (paths or globs): each feature's name, kind, list length and first
values; bytes as text when they are UTF-8, images named as such, anything else as a size and hex preview.

Options:
  --json                one JSON line per record: protobuf's JSON form of tf.train.Example
  --limit N             records to show (default 10; with --json, all)
${READ_FLAGS_HELP}`,
  options: { json: { type: 'boolean' }, limit: { type: 'string' }, ...READ_FLAGS },
  load: async () => (await import('./inspect.js')).inspectFiles,
};
