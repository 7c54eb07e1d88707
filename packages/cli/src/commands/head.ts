import { exampleToJsonText, isSequenceExample, sequenceExampleToJsonText } from '@tfpipe/core';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { expandTfrecordPaths } from '@tfpipe/sink-tfrecord/internal';
import type { FlagValues } from '../command.js';
import { integerFlag, requirePositionals } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { payloadTypeOf, readOptions } from './read-options.js';

/** Records printed without `--records`, as Unix `head` prints 10 lines. */
const DEFAULT_RECORDS = 10;

/** `tfpipe head`: the first `--records` records of the files, in order, as JSON lines. */
export async function headFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await expandTfrecordPaths(requirePositionals(positionals, 'FILE to read'), 'head');
  const limit = integerFlag(values, 'records', 0) ?? DEFAULT_RECORDS;
  if (limit === 0) return 0;
  const payloadType = await payloadTypeOf(values, files[0]);
  let shown = 0;
  // Leaving the loop closes the reader: nothing past the last record printed is read.
  for await (const record of readExamples(files, { ...readOptions(values), payloadType })) {
    await writeLine(
      io.stdout,
      isSequenceExample(record) ? sequenceExampleToJsonText(record) : exampleToJsonText(record),
    );
    if (++shown >= limit) break;
  }
  return 0;
}
