import type { Command } from '../command.js';
import { READ_FLAGS, READ_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe count`: records per file and in all, every CRC verified. */
export const countCommand: Command = {
  name: 'count',
  summary: 'count records (every CRC verified)',
  usage: `Usage: tfpipe count FILE... [options]

Counts the records of TFRecord files (paths or globs), verifying every CRC on the way. Prints one line
per file and a total when there are several.

Options:
${READ_FLAGS_HELP}`,
  options: { ...READ_FLAGS },
  load: async () => (await import('./count.js')).countFiles,
};
