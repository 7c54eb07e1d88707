import { buildExamples, run, type RunSummary } from '@tfpipe/core';
import { parquetExampleSpec, parquetSchema, parquetSource } from '@tfpipe/source-parquet';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';

/**
 * Parquet → TFRecord: the feature spec comes from the file's footer (INT64 → int64, DOUBLE → float,
 * UTF8 → bytes, repeated columns → lists), rows are read row group by row group, gzip output.
 */
export async function parquetPipeline(parquetFile: string, outputDirectory: string): Promise<RunSummary> {
  const schema = await parquetSchema(parquetFile);
  return run(
    parquetSource({ path: parquetFile }),
    buildExamples(parquetExampleSpec(schema)),
    tfrecordSink({
      directory: outputDirectory,
      prefix: 'weather',
      compression: 'gzip',
      manifest: true,
      overwrite: true,
    }),
  );
}
