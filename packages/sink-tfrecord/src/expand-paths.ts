import * as fileSystem from 'node:fs/promises';
import { checkReplacedName, expandGlob, isGlob } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';

/** Files a glob never picks up: index files and manifests that sit beside shards. */
const SIDECARS = /\.(idx|manifest\.json)$/;

const isSidecar = (name: string): boolean => SIDECARS.test(name);

/**
 * The files named by `paths`: plain paths as given (in order), globs (`*`, `?`, `[…]`, `**`, `{a,b}`,
 * core's one matcher) expanded to sorted regular files, skipping dot-files, `.idx` and `.manifest.json`
 * sidecars.
 * @throws TfpipeError `INPUT_NOT_FOUND` when a glob matches nothing; `INVALID_OPTION` for a bad glob;
 * `IO` when a matching file's name is not UTF-8 (it is never skipped silently)
 */
export async function expandPaths(paths: string | readonly string[], stage: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    if (!isGlob(path)) {
      await checkReplacedName(fileSystem, path, stage);
      files.push(path);
      continue;
    }
    const matches = await expandGlob(path, { fileSystem, stage, ignore: isSidecar });
    if (matches.length === 0) {
      throw new TfpipeError('INPUT_NOT_FOUND', `no file matches ${JSON.stringify(path)}`, {
        stage,
        fatal: true,
      });
    }
    // A loop, not `push(...matches)`: a glob may match more files than a call takes arguments.
    for (const file of matches) files.push(file);
  }
  return files;
}
