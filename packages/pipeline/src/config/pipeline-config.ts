import type { FeatureSpec, SinkPluginDefinition, SourcePluginDefinition, ValueKind } from '@tfpipe/core';
import type { ColumnSplitOptions, HashSplitOptions } from '../stages/assign-split.js';

/** A plugin and its options: `{ plugin: '@tfpipe/source-csv', options: { path: 'a.csv' } }`. */
export interface PluginReference<Definition, Options> {
  /**
   * A package name (`'@tfpipe/source-csv'`), a short name of a known plugin (`csv`, `parquet`,
   * `images`, `jsonl`, `tfrecord`), or, in code, the definition itself (then options are typed).
   */
  readonly plugin: string | Definition;
  /** The plugin's options, checked against its schema (unknown keys are errors). @default {} */
  readonly options?: Options;
}

/** One transform, applied to rows in order before the Examples are built. */
export type TransformConfig<Row = unknown> =
  /** Keep rows for which the expression (files) or predicate (code) is true. */
  | { readonly filter: string | ((row: Row) => boolean) }
  /** Replace each row (code only): derive a field from others; `undefined` drops the row. */
  | { readonly map: (row: Row) => Row | undefined }
  /** Keep the first N rows, then stop reading. */
  | { readonly take: number }
  /** A seeded random sample: `{ count, seed }` (reservoir) or `{ fraction, seed }`. */
  | { readonly sample: { readonly count?: number; readonly fraction?: number; readonly seed?: number } };

/** How rows are split into shard sets: by hashing a key column, or by a column naming the split. */
export type SplitConfig = HashSplitOptions | ColumnSplitOptions;

/** Shuffling before the sink (per split). */
export interface ShuffleConfig {
  /** The seed: same seed, same input → same order. @default 0 */
  readonly seed?: number;
  /** In-memory shuffle buffer, in records (tf.data's `buffer_size`). @default 10000 unless `full` */
  readonly buffer?: number;
  /** A full shuffle of any size: spill shuffled runs to temporary files, then merge. @default false */
  readonly full?: boolean;
  /** Bytes held in memory per run of a full shuffle: a number or `"256M"`. @default "256M" */
  readonly memory?: number | string;
}

/** Which reader descriptions the run writes beside the output. */
export type ReaderSpecFormat = 'tf' | 'tfds' | 'dali';

/**
 * A whole pipeline as data: the same object in TypeScript (`definePipelineConfig`) and in a
 * `pipeline.json` / `pipeline.yaml` file (`tfpipe run`). Paths in a file are relative to the file.
 */
export interface PipelineConfig<SourceOptions = unknown, Row = unknown, SinkOptions = unknown> {
  /** A JSON Schema URL for editors; ignored. */
  readonly $schema?: string;
  /** The dataset's name, for `dataset_info.json`. @default the output directory's name */
  readonly name?: string;
  /** Where the rows come from. */
  readonly source: PluginReference<SourcePluginDefinition<SourceOptions, Row>, SourceOptions>;
  /**
   * Feature name → kind or spec, as for `buildExamples`. @default what the source provides (every
   * column, with the kinds it inferred or read from a footer)
   */
  readonly spec?: Readonly<Record<string, ValueKind | FeatureSpec<Row>>>;
  /** Row transforms in order. @default none */
  readonly transforms?: readonly TransformConfig<Row>[];
  /** Split into train/validation/test shard sets. @default one shard set */
  readonly split?: SplitConfig;
  /** Shuffle before writing. @default no shuffle */
  readonly shuffle?: ShuffleConfig;
  /** Where the Examples go. */
  readonly sink: PluginReference<SinkPluginDefinition<SinkOptions>, SinkOptions>;
  /** Record errors: stop at the first (`fail`) or drop and count them (`skip`). @default 'fail' */
  readonly onError?: 'fail' | 'skip';
  /**
   * Reader descriptions written into the output directory: `tf` → `reader_spec.py`
   * (`tf.io.parse_single_example` feature_description), `tfds` → `dataset_info.json` +
   * `features.json`, `dali` → `dali_spec.py`.
   * @default ['tf'] for a directory of shards, [] for a single output file
   */
  readonly readerSpec?: readonly ReaderSpecFormat[];
}

/**
 * Type-checks a pipeline config in code: `export default definePipelineConfig({ source: { plugin:
 * csvPlugin, options: { path: 'a.csv' } }, sink: { plugin: tfrecordPlugin, options: { directory:
 * 'out' } } })`. With plugin definitions (not names) the options are typed by their schemas.
 * Run it with `runPipelineConfig(config)`.
 */
export function definePipelineConfig<SourceOptions, Row, SinkOptions>(
  config: PipelineConfig<SourceOptions, Row, SinkOptions>,
): PipelineConfig<SourceOptions, Row, SinkOptions> {
  return config;
}
