import { readerSpec, type DatasetStats, type FeatureParseSpec, type ShardSummary } from '@tfpipe/core';

/** One split as written. */
export interface WrittenSplit {
  readonly name: string;
  readonly shards: readonly ShardSummary[];
}

const SHARD = /-\d{5,}-of-\d{5,}/;

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/**
 * TFDS's `dataset_info.json` (the `DatasetInfo` proto in JSON form, int64s as strings as proto3 JSON
 * writes them): name, version, file format and, per split, `shardLengths`, `numBytes` and a
 * `filepathTemplate` matching our shard names (`train-{SHARD_X_OF_Y}.tfrecord`), so
 * `tfds.builder_from_directory(out)` finds the files.
 */
export function tfdsDatasetInfo(name: string, splits: readonly WrittenSplit[], compression: string): object {
  return {
    name,
    version: '1.0.0',
    description:
      compression === 'none'
        ? 'Written by tfpipe.'
        : `Written by tfpipe with ${compression} compression, which TFDS does not read: convert with compression none for TFDS.`,
    fileFormat: 'tfrecord',
    splits: splits.map((split) => {
      const first =
        split.shards[0] === undefined
          ? `${split.name}-00000-of-00001.tfrecord`
          : baseName(split.shards[0].path);
      return {
        name: split.name,
        numBytes: String(split.shards.reduce((sum, shard) => sum + shard.bytes, 0)),
        shardLengths: split.shards.map((shard) => String(shard.records)),
        filepathTemplate: first.replace(SHARD, '-{SHARD_X_OF_Y}'),
      };
    }),
  };
}

const DTYPE = { int64: 'int64', float32: 'float32', string: 'string' } as const;

function tfdsFeature(spec: FeatureParseSpec): object | undefined {
  if (spec.parser === 'skip') return undefined;
  const dtype = DTYPE[spec.dtype];
  if (spec.parser === 'fixed' && spec.shape.length === 0) {
    return {
      pythonClassName: 'tensorflow_datasets.core.features.scalar.Scalar',
      tensor: { shape: {}, dtype, encoding: 'none' },
    };
  }
  const dimensions = spec.parser === 'fixed' ? spec.shape.map(String) : ['-1'];
  return {
    pythonClassName: 'tensorflow_datasets.core.features.tensor_feature.Tensor',
    tensor: { shape: { dimensions }, dtype, encoding: 'none' },
  };
}

/**
 * TFDS's `features.json` (the `FeaturesDict` proto in JSON form): a `Scalar` for a feature with
 * exactly one value in every record, a `Tensor` of shape `[n]` for a fixed length n, and a
 * `Tensor` of shape `[-1]` for variable lengths (TFDS parses those with `allow_missing`).
 * Features of mixed kinds are left out. TFDS reads Examples only.
 */
export function tfdsFeatures(stats: DatasetStats): object {
  const features: Record<string, object> = {};
  for (const spec of readerSpec(stats).features) {
    const feature = tfdsFeature(spec);
    if (feature !== undefined) features[spec.name] = feature;
  }
  return {
    pythonClassName: 'tensorflow_datasets.core.features.features_dict.FeaturesDict',
    featuresDict: { features },
  };
}
