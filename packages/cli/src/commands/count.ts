import { countRecords } from '@tfpipe/sink-tfrecord';
import type { FlagValues } from '../command.js';
import { writeLine, type CliIo } from '../io.js';
import { printableName } from '../printable.js';
import { readOptions } from './read-options.js';
import { tfrecordFiles } from './tfrecord-files.js';

/** `tfpipe count`: records per file and in all, every CRC verified. */
export async function countFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await tfrecordFiles(positionals, 'FILE to count', 'count', io);
  const options = readOptions(values);
  let total = 0;
  for (const file of files) {
    const count = await countRecords(file, options);
    total += count;
    await writeLine(io.stdout, `${count}\t${printableName(file)}`);
  }
  if (files.length > 1) await writeLine(io.stdout, `${total}\ttotal`);
  return 0;
}
