import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TfpipeError, type FeatureListStat, type FeatureStat, type PayloadType } from '@tfpipe/core';
import { readError } from '@tfpipe/node-utils';
import { openRegularFile } from '@tfpipe/node-utils';
import type { TfrecordCompression } from './tf-record.js';

/** The manifest's format marker. */
export const MANIFEST_FORMAT = 'tfpipe-tfrecord-manifest';
/** The manifest file name suffix: `PREFIX.manifest.json` beside the shards. */
export const MANIFEST_SUFFIX = '.manifest.json';

/** One shard in the manifest. */
export interface ManifestShard {
  /** The file name (no directory). */
  readonly name: string;
  /** Records in it. */
  readonly records: number;
  /** Bytes on disk. */
  readonly bytes: number;
  /** Framed bytes before compression (the size of the uncompressed TFRecord file). */
  readonly uncompressedBytes: number;
  /** SHA-256 of the file on disk, lowercase hex. */
  readonly sha256: string;
  /** The file's compression. */
  readonly compression: TfrecordCompression;
  /** The DALI-format index file beside it, if one was written. */
  readonly index?: string;
}

/** The JSON a sink writes beside its shards with `manifest: true`. */
export interface TfrecordManifest {
  /** Always {@link MANIFEST_FORMAT}. */
  readonly format: typeof MANIFEST_FORMAT;
  /** Manifest version: 1. */
  readonly version: 1;
  /** What each record's payload is: it cannot be told from the bytes. */
  readonly payloadType: PayloadType;
  /** The shards' compression. */
  readonly compression: TfrecordCompression;
  /** Records in all shards. */
  readonly records: number;
  /** Bytes on disk in all shards. */
  readonly bytes: number;
  /** The shards, in order. */
  readonly shards: readonly ManifestShard[];
  /**
   * Every feature seen (the context features of SequenceExamples), with kind, presence and list lengths,
   * sorted by name: core's `FeatureStat`.
   */
  readonly features: readonly FeatureStat[];
  /** The feature lists of SequenceExamples, with step counts; empty for Examples. */
  readonly featureLists: readonly FeatureListStat[];
}

/** The largest manifest read: 64 MiB (a million shards' entries fit in far less). */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

const SHARD_NAME = /^(.*)-\d{5,}-of-\d{5,}/;

/**
 * The manifest that describes `target`: for a directory, the one `*.manifest.json` in it; for a file,
 * `FILE.manifest.json` or, for a shard `PREFIX-00000-of-00004…`, `PREFIX.manifest.json` beside it.
 * Resolves `undefined` when there is none. A manifest path that is not a regular file (a FIFO, a link to
 * `/dev/zero`) is refused before it is opened, and one over {@link MAX_MANIFEST_BYTES} before it is read.
 * @throws TfpipeError `CONFIG_PARSE` when a manifest exists but is not one or is too large;
 * `INPUT_NOT_FILE` when the manifest path is not a regular file.
 */
export async function readManifest(target: string): Promise<TfrecordManifest | undefined> {
  const candidates: string[] = [];
  const info = await stat(target).catch(() => undefined);
  if (info?.isDirectory()) {
    const entries = (await readdir(target)).filter((entry) => entry.endsWith(MANIFEST_SUFFIX)).sort();
    if (entries.length === 1) candidates.push(join(target, entries[0]!));
  } else {
    candidates.push(`${target}${MANIFEST_SUFFIX}`);
    const shard = SHARD_NAME.exec(basename(target));
    if (shard !== null) candidates.push(join(dirname(target), `${shard[1]}${MANIFEST_SUFFIX}`));
  }
  for (const candidate of candidates) {
    // Absent (or unreachable) is "no manifest"; anything present must be a readable regular file.
    if ((await stat(candidate).catch(() => undefined)) === undefined) continue;
    return parseManifest(await readManifestText(candidate), candidate);
  }
  return undefined;
}

/**
 * The manifest in `text`, read from `file`.
 * @throws TfpipeError `CONFIG_PARSE` when it is not JSON or not a tfpipe manifest.
 */
export function parseManifest(text: string, file: string): TfrecordManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TfpipeError('CONFIG_PARSE', 'manifest is not JSON', {
      position: { file },
      cause: error,
      stage: 'readManifest',
    });
  }
  const manifest = value as Partial<TfrecordManifest> | null;
  if (
    manifest?.format !== MANIFEST_FORMAT ||
    (manifest.payloadType !== 'Example' && manifest.payloadType !== 'SequenceExample') ||
    !Array.isArray(manifest.shards)
  ) {
    throw new TfpipeError('CONFIG_PARSE', `not a ${MANIFEST_FORMAT} file`, {
      position: { file },
      stage: 'readManifest',
    });
  }
  return manifest as TfrecordManifest;
}

async function readManifestText(path: string): Promise<string> {
  const stage = 'readManifest';
  const { handle, size } = await openRegularFile(path, stage);
  try {
    if (size > MAX_MANIFEST_BYTES) {
      throw new TfpipeError('CONFIG_PARSE', 'manifest too large', {
        stage,
        position: { file: path },
        reason: `${size} bytes, more than the ${MAX_MANIFEST_BYTES} a manifest may have`,
      });
    }
    // One byte more than the size: a file that grew since it was opened is caught, not cut short.
    const buffer = new Uint8Array(size + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled > size) {
        throw new TfpipeError('INPUT_CHANGED', 'manifest changed while it was read', {
          stage,
          fatal: true,
          position: { file: path },
        });
      }
    }
    return new TextDecoder().decode(buffer.subarray(0, filled));
  } catch (error) {
    throw readError(error, path, stage, 'reading the manifest');
  } finally {
    await handle.close().catch(() => undefined);
  }
}
