import type { Command } from '../command.js';
import { RUN_FLAGS, SOURCE_FLAGS, SOURCE_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe convert IN OUT`: any supported input to TFRecord files. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'CSV, Parquet, images, JSON Lines or TFRecords → TFRecord files',
  usage: `Usage: tfpipe convert IN OUT [options]

Converts IN to TFRecord files of tf.train.Example. OUT is one file when it ends in .tfrecord (.gz, .zz)
and no sharding is asked; otherwise a directory of shards PREFIX-00000-of-0000N.tfrecord. Nothing
appears under a final name until it is complete.

Output:
  --compression C       none, gzip or zlib: the whole file, as TensorFlow's GZIP/ZLIB options (default:
                        gzip for an OUT ending in .gz, zlib for .zz, else none)
  --level N             compression level 0-9 (default 6)
  --shards N            exactly N shards, records dealt round-robin
  --max-records N       a new shard every N records
  --max-bytes SIZE      a new shard before SIZE bytes (e.g. 256M)
  --prefix NAME         shard name prefix (default data)
  --index               write a DALI index (<shard>.idx) beside each uncompressed shard
  --manifest            write PREFIX.manifest.json: shards, counts, sha256, features
  --overwrite           replace the previous output of OUT (its shard set of PREFIX, its manifest);
                        other files and prefixes in the directory are never touched
  --on-error P          fail (default) or skip bad records, counted in the summary
  --save-config FILE    after a successful run, also write these choices as a pipeline file; 'tfpipe run
                        FILE' repeats this conversion exactly (edit it to add transforms, splits, a
                        shuffle). FILE may not be IN or OUT; an existing FILE needs --overwrite
  --json                print the final summary as one JSON object
  --quiet               no progress line, no summary

A directory of shards also gets reader_spec.py: the feature_description to read it with TensorFlow.

${SOURCE_FLAGS_HELP}`,
  options: {
    compression: { type: 'string' },
    level: { type: 'string' },
    shards: { type: 'string' },
    'max-records': { type: 'string' },
    'max-bytes': { type: 'string' },
    prefix: { type: 'string' },
    index: { type: 'boolean' },
    manifest: { type: 'boolean' },
    'on-error': { type: 'string' },
    'save-config': { type: 'string' },
    ...RUN_FLAGS,
    ...SOURCE_FLAGS,
  },
  load: async () => (await import('./convert.js')).convert,
};
