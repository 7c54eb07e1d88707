import { countRecords } from '@tfpipe/sink-tfrecord';
import { expandTfrecordPaths } from '@tfpipe/sink-tfrecord/internal';
import type { Command } from '../command.js';
import { requirePositionals } from '../flags.js';
import { writeLine } from '../io.js';
import { printableName } from '../printable.js';
import { READ_FLAGS, READ_FLAGS_HELP, readOptions } from './read-options.js';

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
  async run(values, positionals, io) {
    const files = await expandTfrecordPaths(requirePositionals(positionals, 'FILE to count'), 'count');
    const options = readOptions(values);
    let total = 0;
    for (const file of files) {
      const count = await countRecords(file, options);
      total += count;
      await writeLine(io.stdout, `${count}\t${printableName(file)}`);
    }
    if (files.length > 1) await writeLine(io.stdout, `${total}\ttotal`);
    return 0;
  },
};
