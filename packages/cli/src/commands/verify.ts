import { expandPaths, verifyTfrecord } from '@tfpipe/sink-tfrecord';
import type { Command } from '../command.js';
import { requirePositionals } from '../flags.js';
import { writeLine } from '../io.js';
import { formatBytes } from '../preview.js';
import { READ_FLAGS, READ_FLAGS_HELP, readOptions } from './read-options.js';

/** `tfpipe verify`: reads every record, checks every CRC, lists every problem. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check every record and CRC; exit 1 on the first problem file',
  usage: `Usage: tfpipe verify FILE... [options]

Reads TFRecord files (paths or globs) to the end, checking the length CRC and data CRC of every record.
Prints "ok" per good file; for a bad one, every problem in TensorFlow's words ("corrupted record at byte
N", "truncated record at byte N") and the byte ranges lost, and exits 1.

Options:
${READ_FLAGS_HELP}`,
  options: { ...READ_FLAGS },
  async run(values, positionals, io) {
    const files = await expandPaths(requirePositionals(positionals, 'FILE to verify'), 'verify');
    const options = readOptions(values);
    let failed = 0;
    for (const file of files) {
      const result = await verifyTfrecord(file, options);
      if (result.ok) {
        await writeLine(io.stdout, `ok\t${result.records} records\t${formatBytes(result.bytes)}\t${file}`);
        continue;
      }
      failed++;
      for (const error of result.errors)
        await writeLine(io.stderr, `tfpipe verify: ${error.message} [${error.code}]`);
      if (result.problems > result.errors.length) {
        await writeLine(
          io.stderr,
          `tfpipe verify: … and ${result.problems - result.errors.length} more problems`,
        );
      }
      await writeLine(
        io.stdout,
        `FAILED\t${result.records} good records, ${result.problems} problems, ${result.lostBytes} bytes lost\t${file}`,
      );
    }
    return failed === 0 ? 0 : 1;
  },
};
