import { basename, join } from 'node:path';
import type { DatasetStats, PayloadType } from '@tfpipe/core';
import { MANIFEST_FORMAT, MANIFEST_SUFFIX, type ManifestShard, type TfrecordManifest } from './manifest.js';
import type { ShardFile } from './shard-file.js';
import type { ResolvedSinkOptions } from './sink-options.js';

/** Where the manifest goes: `PATH.manifest.json`, or `DIRECTORY/PREFIX.manifest.json` for shards. */
export function manifestPath(options: ResolvedSinkOptions): string {
  return options.sharding.mode === 'single'
    ? `${options.sharding.path}${MANIFEST_SUFFIX}`
    : join(options.directory, `${options.prefix}${MANIFEST_SUFFIX}`);
}

/** The manifest of finished shards. */
export function buildManifest(
  shards: readonly ShardFile[],
  finals: readonly string[],
  options: ResolvedSinkOptions,
  payloadType: PayloadType,
  stats: DatasetStats,
): TfrecordManifest {
  const entries: ManifestShard[] = shards.map((shard, index) => {
    const name = basename(finals[index]!);
    return {
      name,
      records: shard.records,
      bytes: shard.diskBytes,
      uncompressedBytes: shard.frameBytes,
      sha256: shard.sha256,
      compression: options.compression,
      ...(options.index ? { index: `${name}.idx` } : {}),
    };
  });
  return {
    format: MANIFEST_FORMAT,
    version: 1,
    payloadType,
    compression: options.compression,
    records: entries.reduce((sum, entry) => sum + entry.records, 0),
    bytes: entries.reduce((sum, entry) => sum + entry.bytes, 0),
    shards: entries,
    features: stats.features,
    featureLists: stats.featureLists,
  };
}
