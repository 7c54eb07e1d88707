import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { TfpipeError, type DatasetStats } from '@tfpipe/core';
import type { SideFile } from '@tfpipe/core/plugin';
import type { TfrecordManifest } from '@tfpipe/sink-tfrecord';
import { importPeer, importSinkTfrecord } from '../plugins/import-peer.js';
import { writeReaderFiles } from '../run/reader-files.js';
import type { WrittenSplit } from '../run/tfds-metadata.js';
import { mergeStats } from './merge-stats.js';
import type { ScalePlan } from './plan-types.js';
import { readMarker, type ShardMarker, type SkippedRecord } from './shard-marker.js';
import { KEPT_SKIPPED_ERRORS } from './unit-source.js';

/** What {@link finalizePlan} wrote. */
export interface FinalizeResult {
  /** Shard files, in split then index order. */
  readonly shards: readonly string[];
  /** Manifests, reader specs and side files written (names in the output directory). */
  readonly files: readonly string[];
  readonly records: number;
  /** Records dropped under `onError: 'skip'` by every index (from their markers). */
  readonly skipped: number;
  /** The first 100 of their errors, in index order, positions in whole-file terms. */
  readonly skippedErrors: readonly SkippedRecord[];
}

/** Every marker, in index order. @throws TfpipeError `SHARD_INCOMPLETE` listing the indexes to run */
export async function committedMarkers(plan: ScalePlan): Promise<ShardMarker[]> {
  const markers = await Promise.all(plan.shards.map((shard) => readMarker(plan, shard.index)));
  const missing = plan.shards.filter((_, index) => markers[index] === undefined).map((shard) => shard.index);
  if (missing.length > 0) {
    throw new TfpipeError(
      'SHARD_INCOMPLETE',
      `${missing.length} of ${plan.shardCount} shard(s) are not committed: indexes ${missing.join(', ')}`,
      {
        stage: 'finalize',
        fatal: true,
        position: { field: 'index' },
        reason: `run tfpipe work PLAN --index I for each of ${missing.join(', ')}, then finalize again`,
      },
    );
  }
  return markers as ShardMarker[];
}

function manifestOf(prefix: string, markers: readonly ShardMarker[]): TfrecordManifest {
  const files = markers.flatMap((marker) => marker.files.filter((file) => file.prefix === prefix));
  const stats = mergeStats(markers.flatMap((marker) => marker.stats[prefix] ?? []));
  return {
    format: 'tfpipe-tfrecord-manifest',
    version: 1,
    payloadType: stats.payloadType,
    compression: files[0]?.compression ?? 'none',
    records: files.reduce((sum, file) => sum + file.records, 0),
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    shards: files.map(({ prefix: _prefix, ...file }) => file),
    features: stats.features,
    featureLists: stats.featureLists,
  };
}

/** The source's side files, from what the plan fixed (a CSV's vocabularies, an image input's label map). */
async function planSideFiles(plan: ScalePlan): Promise<readonly SideFile[]> {
  const { schema, labelMap } = plan.sourceOptions;
  if (Array.isArray(labelMap)) {
    if (labelMap.length === 0) return [];
    const images = await importPeer(
      '@tfpipe/source-images',
      () => import('@tfpipe/source-images'),
      'finalizing an image plan',
    );
    return [{ name: 'labels.txt', contents: images.formatLabelMap(labelMap as never, 'txt') }];
  }
  if (schema === undefined) return [];
  const csv = await importPeer(
    '@tfpipe/source-csv',
    () => import('@tfpipe/source-csv'),
    'finalizing a CSV plan',
  );
  return csv.vocabularyFiles(schema as never);
}

/**
 * Finishes a planned run once every index is committed: checks every marker (and that its files are
 * there at their size), then writes the reader specs and side files, and last each prefix's
 * `PREFIX.manifest.json`, each by a rename. Safe to run again. Writes nothing while a shard is missing.
 *
 * @throws TfpipeError `SHARD_INCOMPLETE` listing the indexes to run again.
 */
export async function finalizePlan(plan: ScalePlan): Promise<FinalizeResult> {
  const markers = await committedMarkers(plan);
  const { removeStaleTemporaries, temporaryPath, releaseTemporary } = await importSinkTfrecord('finalize');
  for (const shard of plan.shards) {
    await removeStaleTemporaries(plan.directory, `shard-${String(shard.index).padStart(5, '0')}`);
  }
  const prefixes = [...new Set(markers.flatMap((marker) => marker.files.map((file) => file.prefix)))];
  const config = plan.pipeline.config;
  const splits: WrittenSplit[] = prefixes.map((prefix) => ({
    name: prefix,
    shards: markers.flatMap((marker) =>
      marker.files
        .filter((file) => file.prefix === prefix)
        .map((file) => ({ path: join(plan.directory, file.name), records: file.records, bytes: file.bytes })),
    ),
  }));
  const staging = temporaryPath(plan.directory, 'finalize');
  try {
    await mkdir(staging);
    const all: DatasetStats = mergeStats(markers.flatMap((marker) => Object.values(marker.stats)));
    const compression = markers[0]?.files[0]?.compression ?? 'none';
    const readerFiles = await writeReaderFiles(
      staging,
      config.readerSpec ?? ['tf'],
      all,
      splits,
      compression,
      config.name ?? basename(plan.directory),
    );
    const sideFiles = await planSideFiles(plan);
    for (const { name, contents } of sideFiles) await writeFile(join(staging, name), contents);
    const manifests = prefixes.map((prefix) => `${prefix}.manifest.json`);
    for (const [index, prefix] of prefixes.entries()) {
      await writeFile(
        join(staging, manifests[index]!),
        `${JSON.stringify(manifestOf(prefix, markers), null, 2)}\n`,
      );
    }
    // The manifests last: a reader that finds one finds everything it describes.
    const files = [...readerFiles, ...sideFiles.map((file) => file.name), ...manifests];
    for (const name of files) await rename(join(staging, name), join(plan.directory, name));
    return {
      shards: splits.flatMap((split) => split.shards.map((shard) => basename(shard.path))),
      files,
      records: all.records,
      skipped: markers.reduce((sum, marker) => sum + (marker.skippedRecords ?? 0), 0),
      skippedErrors: markers.flatMap((marker) => marker.skippedErrors ?? []).slice(0, KEPT_SKIPPED_ERRORS),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
    releaseTemporary(staging);
  }
}
