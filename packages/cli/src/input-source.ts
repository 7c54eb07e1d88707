import { open, readdir, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { checkReplacedName, listDirectory, usableName } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';
import { detectCompression } from '@tfpipe/sink-tfrecord';
import { crc32c, unmaskCrc } from '@tfpipe/sink-tfrecord/internal';
import { readError } from '@tfpipe/node-utils';

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

/** Bytes of a TFRecord frame's header: the uint64 length and its masked CRC-32C. */
const FRAME_HEADER_BYTES = 12;

/**
 * The kind of a file whose name says nothing (`/dev/stdin` redirected from a file, `data.bin`): TFRecord when
 * it is empty, compressed, too short to judge (the reader then names what is missing) or starts with a
 * frame header whose length CRC holds; Parquet by its `PAR1` magic; anything else is refused rather than
 * read as a TFRecord and reported as a damaged one.
 * @throws TfpipeError `INVALID_OPTION` naming the file
 */
async function kindOfContent(path: string): Promise<InputKind> {
  const head = new Uint8Array(FRAME_HEADER_BYTES);
  let length: number;
  try {
    const handle = await open(path, 'r');
    try {
      ({ bytesRead: length } = await handle.read(head, 0, FRAME_HEADER_BYTES, 0));
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw readError(error, path, 'convert', 'reading its first bytes');
  }
  if (length < FRAME_HEADER_BYTES) return 'tfrecord';
  if (detectCompression(head, true) !== 'none') return 'tfrecord';
  const view = new DataView(head.buffer);
  if (unmaskCrc(view.getUint32(8, true)) === crc32c(head.subarray(0, 8))) return 'tfrecord';
  if (head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31) return 'parquet';
  throw new TfpipeError('INVALID_OPTION', 'cannot tell what the input holds', {
    stage: 'convert',
    position: { file: path },
    reason:
      "its name has no known extension (.csv, .tsv, .jsonl, .ndjson, .parquet, an image type, .tfrecord) and it does not start with a TFRecord record; give the file its format's extension",
    fatal: true,
  });
}

/**
 * Picks the source for IN: a file by its extension (`.csv`/`.tsv`, `.jsonl`, `.parquet`, TFRecord names), else
 * by its first bytes (TFRecord, Parquet);
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
  if (info.isFile()) return kindOfFile(path) ?? (await kindOfContent(path));
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
