import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { daliSpec, tensorflowSpec, type DatasetStats } from '@tfpipe/core';
import type { ReaderSpecFormat } from '../config/pipeline-config.js';
import { tfdsDatasetInfo, tfdsFeatures, type WrittenSplit } from './tfds-metadata.js';

// The run writes these into a staging directory and renames them with the shards (see OutputTransaction).
async function writeNew(file: string, text: string): Promise<void> {
  await writeFile(file, text, { encoding: 'utf8', flag: 'wx' });
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** The files each reader format writes into the output directory. */
export const READER_FILES: Readonly<Record<ReaderSpecFormat, readonly string[]>> = {
  tf: ['reader_spec.py'],
  tfds: ['dataset_info.json', 'features.json'],
  dali: ['dali_spec.py'],
};

/**
 * Writes the reader descriptions of a finished run into `directory`: `reader_spec.py` (the
 * `feature_description` for `tf.io.parse_single_example`, or the sequence specs), `dataset_info.json`
 * + `features.json` (TFDS), `dali_spec.py` (DALI's `features`). File names in the code are the
 * shards of the first split, relative to the directory.
 */
export async function writeReaderFiles(
  directory: string,
  formats: readonly ReaderSpecFormat[],
  stats: DatasetStats,
  splits: readonly WrittenSplit[],
  compression: 'none' | 'gzip' | 'zlib',
  name: string,
): Promise<string[]> {
  const files = (splits[0]?.shards ?? []).map((shard) => baseName(shard.path));
  const written: string[] = [];
  for (const format of formats) {
    if (format === 'tf') {
      const header = `# Written by tfpipe: how to read the TFRecord files in this directory (run from it).\n`;
      await writeNew(
        join(directory, 'reader_spec.py'),
        header + tensorflowSpec(stats, { files, compression }),
      );
    } else if (format === 'dali') {
      await writeNew(join(directory, 'dali_spec.py'), daliSpec(stats, { files }));
    } else {
      await writeNew(
        join(directory, 'dataset_info.json'),
        `${JSON.stringify(tfdsDatasetInfo(name, splits, compression), null, 2)}\n`,
      );
      await writeNew(join(directory, 'features.json'), `${JSON.stringify(tfdsFeatures(stats), null, 2)}\n`);
    }
    written.push(...READER_FILES[format]);
  }
  return written;
}
