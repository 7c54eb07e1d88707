import { TfpipeError } from '@tfpipe/core';
import { parseSequenceExample, tfrecordDataset } from '@tfpipe/dataset/node';
import type { FlagValues } from '../command.js';
import { booleanFlag, integerFlag } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { batchJson } from './batch-json.js';
import { readOptions } from './read-options.js';
import type { SpecFlag } from './spec-file.js';

/**
 * `tfpipe head --spec`: the first `limit` records parsed with the spec file's specs, in batches of
 * `--batch` records, one JSON object per batch.
 */
export async function headParsed(
  files: readonly string[],
  given: SpecFlag,
  limit: number,
  values: FlagValues,
  io: CliIo,
): Promise<void> {
  const batchSize = integerFlag(values, 'batch') ?? 1;
  const { features, featureLists } = given.spec;
  if (booleanFlag(values, 'sequence') && featureLists === undefined) {
    throw new TfpipeError('INVALID_OPTION', '--sequence: the --spec file has no featureLists', {
      stage: 'cli',
      fatal: true,
      position: { file: given.file },
    });
  }
  const { compression, maxRecordBytes } = readOptions(values);
  const records = tfrecordDataset([...files], {
    compression,
    ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }),
  }).take(limit);
  if (featureLists === undefined) {
    for await (const batch of records.parse(features, { batchSize })) {
      await writeLine(io.stdout, batchJson(batch));
    }
    return;
  }
  const parser = parseSequenceExample(features, featureLists);
  for await (const batch of records.batch(batchSize)) {
    const parsed = parser.parse(batch);
    await writeLine(
      io.stdout,
      `{"context":${batchJson(parsed.context)},"featureLists":${batchJson(
        parsed.featureLists,
      )},"lengths":${batchJson(parsed.lengths)}}`,
    );
  }
}
