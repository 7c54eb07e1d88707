import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';

/**
 * `relative` joined to `root`, refusing absolute paths and `..` that leave the root: an annotation
 * file must not make us read `/etc/passwd`.
 * @throws TfpipeError `PATH_ESCAPE`
 */
export function joinInside(root: string, relative: string, position: Position): string {
  const joined = path.resolve(root, relative);
  if (path.isAbsolute(relative) || !isInside(root, joined)) {
    throw new TfpipeError('PATH_ESCAPE', `image path "${relative}" leaves the image root ${root}`, {
      stage: 'imageSource',
      position,
    });
  }
  return joined;
}

/**
 * The real path of `file` after resolving every symlink, which must still lie inside the real path
 * of `root`: a symlink in a dataset pointing outside it is refused.
 * @throws TfpipeError `PATH_ESCAPE` (or `INPUT_NOT_FOUND` when the file does not exist)
 */
export async function realpathInside(root: string, file: string, position: Position): Promise<string> {
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(file), cachedRealpath(root)]);
  } catch (error) {
    throw new TfpipeError('INPUT_NOT_FOUND', 'image file not found', {
      stage: 'imageSource',
      position,
      cause: error,
      reason: (error as Error).message,
    });
  }
  if (!isInside(realRoot, real)) {
    throw new TfpipeError('PATH_ESCAPE', `image resolves to ${real}, outside the image root ${realRoot}`, {
      stage: 'imageSource',
      position,
      reason: 'a symlink leaves the root',
    });
  }
  return real;
}

const roots = new Map<string, Promise<string>>();

function cachedRealpath(root: string): Promise<string> {
  let cached = roots.get(root);
  if (cached === undefined) {
    cached = realpath(root);
    roots.set(root, cached);
    // Forget failures and keep the cache small; it only saves one syscall per image.
    cached.catch(() => roots.delete(root));
    if (roots.size > 64) roots.delete(roots.keys().next().value!);
  }
  return cached;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return (
    relative !== '' &&
    !relative.startsWith(`..${path.sep}`) &&
    relative !== '..' &&
    !path.isAbsolute(relative)
  );
}
