import { run, type RunSummary } from '@tfpipe/core';
import { imageExamples, imageSource, writeLabelMap, type LabelMap } from '@tfpipe/source-images';
import { tfrecordSink } from '@tfpipe/sink-tfrecord';
import * as path from 'node:path';

/**
 * Class folders (`images/<class>/<file>.png`) → three TFRecord shards of 64×64 JPEGs with the
 * `image/*` keys Keras and the Object Detection API read, a DALI index per shard, and `labels.txt`.
 */
export async function imagesPipeline(imageFolder: string, outputDirectory: string): Promise<RunSummary> {
  const source = imageSource({
    folder: imageFolder,
    resize: { width: 64, height: 64, fit: 'cover' },
    format: 'jpeg',
    quality: 85,
  });
  const summary = await run(
    source,
    imageExamples(),
    tfrecordSink({ directory: outputDirectory, prefix: 'images', shards: 3, index: true, overwrite: true }),
  );
  await writeLabelMap(path.join(outputDirectory, 'labels.txt'), summary.details.labelMap as LabelMap);
  return summary;
}
