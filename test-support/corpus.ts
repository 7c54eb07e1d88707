// The third-party corpus vendored with the repository (test-support/corpus, origins and licences in its
// NOTICE.md). Tests name corpus files through this one helper, so none of them reaches outside the checkout.
import { fileURLToPath } from 'node:url';

/** The folder of TFRecord files written by TensorFlow, Apache Beam and other writers. */
export const TFRECORD_CORPUS = fileURLToPath(new URL('./corpus/tfrecord/', import.meta.url));

/** The data files of apache/parquet-testing. */
export const PARQUET_CORPUS = fileURLToPath(new URL('./corpus/parquet/', import.meta.url));

/** The path of one TFRecord corpus file, e.g. `tfrecordCorpusFile('tfx_penguin_train.tfrecord.gz')`. */
export function tfrecordCorpusFile(name: string): string {
  return fileURLToPath(new URL(name, new URL('./corpus/tfrecord/', import.meta.url)));
}

/** The path of one Parquet corpus file, e.g. `parquetCorpusFile('alltypes_plain.parquet')`. */
export function parquetCorpusFile(name: string): string {
  return fileURLToPath(new URL(name, new URL('./corpus/parquet/', import.meta.url)));
}
