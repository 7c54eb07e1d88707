import type { Command } from '../command.js';
import { READ_FLAGS, READ_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe schema`: the features of a dataset, and the reader code for TensorFlow or DALI. */
export const schemaCommand: Command = {
  name: 'schema',
  summary: 'features, kinds, list lengths and presence; --format tf|dali|tfds|ts|spec for readers',
  usage: `Usage: tfpipe schema FILE... [options]

Reads TFRecord files (paths or globs) and reports every feature: its kind, its list lengths and in how
many records it is present.

Options:
  --format F            text (default), json, tf (the feature_description for tf.io.parse_single_example,
                        or the specs for tf.io.parse_single_sequence_example), dali (features for
                        fn.readers.tfrecord), tfds (writes dataset_info.json and features.json: splits
                        from the shard names, shard lengths, bytes; Examples only), ts (the
                        @tfpipe/dataset spec as TypeScript: fixedLen where every record has one
                        length, varLen otherwise, as tf chooses), spec (the same spec as the JSON
                        file tfpipe head --spec and tfpipe export --spec read)
  --out DIR             where --format tfds writes (default: the first file's directory)
  --overwrite           let --format tfds replace an existing dataset_info.json / features.json
  --name NAME           the dataset name in dataset_info.json (default: that directory's name)
  --limit N             read only the first N records
${READ_FLAGS_HELP}`,
  options: {
    format: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string' },
    overwrite: { type: 'boolean' },
    ...READ_FLAGS,
  },
  load: async () => (await import('./schema.js')).describeSchema,
};
