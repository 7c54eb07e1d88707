import { FeatureStatsCollector, tensorflowSpec } from '@tfpipe/core';
import { readExamples, verifyTfrecord } from '@tfpipe/sink-tfrecord';
import * as path from 'node:path';

/** What reading a dataset's files back found. */
export interface ReadBack {
  /** Records decoded. */
  readonly records: number;
  /** Bytes on disk. */
  readonly bytes: number;
  /** Every length and data CRC matched and every record decoded. */
  readonly ok: boolean;
  /** The first problem, when not ok. */
  readonly problem?: string;
  /** The `tf.io.parse_single_example` reader code for these files. */
  readonly tensorflowSpec: string;
}

/**
 * Reads TFRecord files back with tfpipe's reader: verifies every CRC, decodes every record, and
 * derives the TensorFlow parse spec from the features actually written (its dataset line names
 * `specFiles`).
 */
export async function readBack(
  files: readonly string[],
  compression: 'none' | 'gzip' = 'none',
  specFiles: readonly string[] = files,
): Promise<ReadBack> {
  const verified = await verifyTfrecord(files);
  const stats = new FeatureStatsCollector();
  for await (const record of readExamples(files)) stats.add(record);
  const spec = tensorflowSpec(stats.result('Example'), {
    files: specFiles.map((file) => path.basename(file)),
    compression,
  });
  const decodedAll = stats.records === verified.records;
  const problem = verified.ok
    ? decodedAll
      ? undefined
      : `${verified.records} records framed but ${stats.records} decoded`
    : (verified.errors[0]?.message ?? 'verification failed');
  return {
    records: stats.records,
    bytes: verified.bytes,
    ok: verified.ok && decodedAll,
    ...(problem === undefined ? {} : { problem }),
    tensorflowSpec: spec,
  };
}
