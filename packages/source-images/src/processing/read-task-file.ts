import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';
import type { ImageTask } from '../inputs/image-task.js';
import { realpathInside } from '../inputs/safe-path.js';
import type { ResolvedImageOptions } from '../image-source-options.js';
import { firstLine } from './first-line.js';
import { FILE_TOO_LARGE, NOT_A_FILE, type ReadRefusal } from './read-image-file-here.js';
import { readImageFile, type ImageFile } from './read-image-file.js';
import type { AdaptiveReads } from './adaptive-reads.js';

/**
 * Reads one image's file (inside its root): the first half of {@link processImage}, which an image
 * source may start ahead of the rest (see `imageSource`'s read-ahead). `crc`: a kept file's CRC-32C
 * is computed too (see `readImageFile`). `here`: a file to decode is read on this thread while
 * `here`'s reads are fast (see {@link AdaptiveReads}), else on a reader thread.
 * @throws TfpipeError `PATH_ESCAPE`, `INPUT_NOT_FOUND`, `INPUT_NOT_FILE` (a FIFO, a device: never
 * opened), `IMAGE_TOO_LARGE` (more than `maxFileBytes`, never read), `IO`, carrying `position`
 */
export async function readTaskFile(
  task: ImageTask,
  options: ResolvedImageOptions,
  position: Position,
  crc = false,
  here?: AdaptiveReads,
): Promise<ImageFile> {
  if (task.error !== undefined) throw task.error.withPosition(position);
  const real = task.listedInside === true ? task.path : await realpathInside(task.root, task.path, position);
  try {
    // A kept file is hashed as it is, on the reader thread; a processed one after encoding, here.
    // A file to decode needs one reader thread: its read takes ~1% of its decode.
    return await readImageFile(
      real,
      options.keys.sha256 !== false && !options.decode,
      crc && !options.decode,
      options.maxFileBytes,
      options.decode ? 1 : undefined,
      options.decode ? here : undefined,
    );
  } catch (error) {
    throw readError(error as ReadRefusal, position, options.maxFileBytes);
  }
}

function readError(error: ReadRefusal, position: Position, maxFileBytes: number): unknown {
  // Not a file-system error (a reader thread that died): reported as unexpected, never skipped.
  if (error.code === undefined) return error;
  const facts = { stage: 'imageSource', position, cause: error };
  if (error.code === NOT_A_FILE)
    return new TfpipeError('INPUT_NOT_FILE', 'not a regular file', {
      ...facts,
      reason: `the path leads to ${error.kind ?? 'something else'}, which is not read`,
    });
  if (error.code === FILE_TOO_LARGE)
    return new TfpipeError('IMAGE_TOO_LARGE', `image file of ${String(error.size)} bytes`, {
      ...facts,
      reason: `more than maxFileBytes (${maxFileBytes})`,
    });
  const missing = error.code === 'ENOENT' || error.code === 'ENOTDIR';
  return new TfpipeError(missing ? 'INPUT_NOT_FOUND' : 'IO', 'cannot read the image', {
    ...facts,
    reason: firstLine(error.message),
  });
}
