import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { MANIFEST_SUFFIX, parseManifest } from './manifest.js';
import { escapeRegExp } from './shard-names.js';
import type { ResolvedSinkOptions } from './sink-options.js';

const STAGE = 'tfrecordSink';
/** A manifest larger than this is not one tfpipe wrote (a million shards take ~300 MB). */
const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

async function isRegularFile(path: string): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() === true;
}

/** The shard names a tfpipe manifest at `path` lists, or none when the file is not such a manifest. */
async function manifestShards(path: string): Promise<string[] | undefined> {
  const info = await lstat(path).catch(() => undefined);
  // lstat, not stat: a FIFO or a link to a device under a manifest name must not be opened.
  if (info?.isFile() !== true || info.size > MAX_MANIFEST_BYTES) return undefined;
  try {
    const manifest = parseManifest(await readFile(path, 'utf8'), path);
    return manifest.shards.flatMap((shard) =>
      typeof shard.name === 'string' ? [shard.name, `${shard.name}.idx`] : [],
    );
  } catch {
    return undefined;
  }
}

/**
 * The previous output set that this sink's output replaces under `overwrite`, and nothing else:
 * for one file, the file, its `.idx` and its tfpipe manifest; for shards, the files the tfpipe
 * manifest `PREFIX.manifest.json` lists and the manifest, and every file named exactly
 * `PREFIX-NNNNN-of-NNNNN.tfrecord[.gz|.zz]` (or the sink's suffix) with or without `.idx`. Only
 * regular files: never a directory, a link or another prefix's shards. Full paths, sorted.
 */
export async function previousOutputs(options: ResolvedSinkOptions): Promise<string[]> {
  const { directory, prefix, sharding, suffix } = options;
  if (sharding.mode === 'single') {
    const path = sharding.path;
    const candidates = [path, `${path}.idx`];
    const manifest = `${path}${MANIFEST_SUFFIX}`;
    if ((await manifestShards(manifest)) !== undefined) candidates.push(manifest);
    const files: string[] = [];
    for (const candidate of candidates) if (await isRegularFile(candidate)) files.push(candidate);
    return files;
  }
  const shard = `${escapeRegExp(prefix)}-\\d{5,}-of-\\d{5,}`;
  const suffixes = ['.tfrecord', '.tfrecord.gz', '.tfrecord.zz', suffix].map(escapeRegExp).join('|');
  const exact = new RegExp(`^${shard}(?:${suffixes})(?:\\.idx)?$`);
  const listedShape = new RegExp(`^${shard}[^/\\\\]*$`);
  const manifest = `${prefix}${MANIFEST_SUFFIX}`;
  const listed = await manifestShards(join(directory, manifest));
  const inManifest = new Set(listed === undefined ? [] : [...listed, manifest]);
  const entries = await readdir(directory).catch(() => [] as string[]);
  const files: string[] = [];
  for (const entry of entries.sort()) {
    const ours =
      exact.test(entry) || (inManifest.has(entry) && (entry === manifest || listedShape.test(entry)));
    if (ours && (await isRegularFile(join(directory, entry)))) files.push(join(directory, entry));
  }
  return files;
}

/**
 * Fails, before anything is renamed, when a final name is taken by something a rename would not
 * replace or must not replace: a directory (or any non-file), or, without `overwrite`, a file.
 * @throws TfpipeError `OUTPUT_EXISTS` naming the path.
 */
export async function checkTargets(finals: readonly string[], overwrite: boolean): Promise<void> {
  for (const final of finals) {
    const info = await lstat(final).catch(() => undefined);
    if (info === undefined) continue;
    if (info.isFile() && overwrite) continue;
    if (info.isFile()) {
      throw new TfpipeError('OUTPUT_EXISTS', 'output already exists (pass overwrite: true to replace it)', {
        stage: STAGE,
        fatal: true,
        position: { file: final },
      });
    }
    const what = info.isDirectory() ? 'a directory' : 'something other than a file';
    throw new TfpipeError('OUTPUT_EXISTS', `an output name is taken by ${what}, which is never replaced`, {
      stage: STAGE,
      fatal: true,
      position: { file: final },
    });
  }
}
