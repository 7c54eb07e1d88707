import { readdir, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { checkReplacedName, listDirectory, usableName } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';

/** What `tfpipe convert` reads. */
export type InputKind = 'csv' | 'jsonl' | 'parquet' | 'images' | 'tfrecord';

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.gif', '.tif', '.tiff', '.avif']);
const CSV_EXTENSIONS = new Set(['.csv', '.tsv']);
const JSONL_EXTENSIONS = new Set(['.jsonl', '.ndjson']);

function kindOfFile(path: string): InputKind | undefined {
  const extension = extname(path).toLowerCase();
  if (CSV_EXTENSIONS.has(extension)) return 'csv';
  if (JSONL_EXTENSIONS.has(extension)) return 'jsonl';
  if (extension === '.parquet') return 'parquet';
  if (IMAGE_EXTENSIONS.has(extension)) return 'images';
  if (/\.(tfrecords?|record|tfrec)(\.gz|\.zz)?$/i.test(path) || /-\d{5,}-of-\d{5,}/.test(path))
    return 'tfrecord';
  return undefined;
}

/**
 * Picks the source for IN: a file by its extension (`.csv`/`.tsv`, `.jsonl`, `.parquet`, TFRecord names);
 * a directory by what it holds (images in class folders, Parquet parts, CSV files, TFRecord shards).
 */
export async function detectInputKind(path: string): Promise<InputKind> {
  await checkReplacedName({ stat }, path, 'convert');
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new TfpipeError('INPUT_NOT_FOUND', 'no such file or directory', {
      stage: 'convert',
      position: { file: path },
      cause: error,
      fatal: true,
    });
  }
  if (info.isFile()) return kindOfFile(path) ?? 'tfrecord';
  if (!info.isDirectory()) {
    throw new TfpipeError('INPUT_NOT_FILE', 'not a file or directory', {
      stage: 'convert',
      position: { file: path },
      fatal: true,
    });
  }
  const counts = new Map<InputKind, number>();
  for (const entry of await listDirectory({ readdir, stat }, path, 'convert', 'error')) {
    if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
    if (entry.isDirectory) {
      // A folder whose name is not UTF-8 is refused here, naming it, not listed under a wrong name.
      const folder = usableName(path, entry, 'convert');
      for (const inner of (await listDirectory({ readdir, stat }, folder, 'convert')).slice(0, 50)) {
        const kind = kindOfFile(inner.name);
        if (kind === 'images') counts.set('images', (counts.get('images') ?? 0) + 1);
      }
      continue;
    }
    const kind = kindOfFile(entry.name);
    if (kind !== undefined) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked[0] === undefined) {
    throw new TfpipeError(
      'INVALID_OPTION',
      'found nothing to convert (no images in class folders, .csv, .parquet, .jsonl or TFRecord files)',
      {
        stage: 'convert',
        position: { file: path },
        fatal: true,
      },
    );
  }
  return ranked[0][0];
}
