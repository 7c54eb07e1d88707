import { exampleToJsonText, isSequenceExample, sequenceExampleToJsonText } from '@tfpipe/core';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { TfpipeError } from '@tfpipe/core';
import type { FlagValues } from '../command.js';
import { integerFlag, stringFlag } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { payloadTypeOf, readOptions } from './read-options.js';
import { readSpecFlag } from './spec-file.js';
import { tfrecordFiles } from './tfrecord-files.js';

/** Records printed without `--records`, as Unix `head` prints 10 lines. */
const DEFAULT_RECORDS = 10;

/**
 * `tfpipe head`: the first `--records` records of the files, in order, as JSON lines; with `--spec`,
 * parsed into tensors, one line per `--batch` records.
 */
export async function headFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await tfrecordFiles(positionals, 'FILE to read', 'head', io);
  const limit = integerFlag(values, 'records', 0) ?? DEFAULT_RECORDS;
  const spec = await readSpecFlag(values, io);
  if (spec === undefined && stringFlag(values, 'batch') !== undefined) {
    throw new TfpipeError('INVALID_OPTION', '--batch needs --spec (it sizes the parsed batches)', {
      stage: 'cli',
      fatal: true,
    });
  }
  if (limit === 0) return 0;
  if (spec !== undefined) {
    const { headParsed } = await import('./head-spec.js');
    await headParsed(files, spec, limit, values, io);
    return 0;
  }
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
