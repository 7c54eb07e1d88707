import * as nodeFileSystem from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { checkReplacedName, expandGlob, isGlob, listDirectory, usableName } from '@tfpipe/core/plugin';
import type { ListingFileSystem as FileSystem } from '@tfpipe/core/plugin';
import { readError } from './io-error.js';
import { notAFile } from './open-regular-file.js';

/** What {@link expandPaths} takes besides the paths. */
export interface ExpandPathsOptions {
  /** The stage named in errors, e.g. `'csvSource'`. */
  readonly stage: string;
  /**
   * Names a wildcard, `**` or a directory walk never picks up, beyond dot-names (which they never
   * pick up either): a plugin's side files, such as `.idx` indexes or Spark's `_SUCCESS`. A name
   * given literally is always taken.
   * @default none
   */
  readonly ignore?: (name: string) => boolean;
  /**
   * What a path naming a directory gives: `'refuse'` is `INPUT_NOT_FILE`; `'walk'` gives every file
   * under it, recursively and sorted (Spark and Hive write a table as a folder of parts).
   * @default 'refuse'
   */
  readonly directories?: 'refuse' | 'walk';
  /**
   * The directory relative paths and patterns are read against; the files come back named as given
   * (relative stays relative), so messages show what the user typed.
   * @default process.cwd()
   */
  readonly cwd?: string;
}

/** `node:fs/promises`, reading relative paths against `cwd` (the walkers keep names relative). */
function fileSystemIn(cwd: string | undefined): FileSystem {
  if (cwd === undefined) return nodeFileSystem;
  return {
    readdir: (path, options) => nodeFileSystem.readdir(resolve(cwd, path), options),
    stat: (path) => nodeFileSystem.stat(resolve(cwd, path)),
  };
}

async function walk(
  directory: string,
  options: ExpandPathsOptions,
  fileSystem: FileSystem,
): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await listDirectory(fileSystem, directory, options.stage, 'error')) {
    if (entry.name.startsWith('.') || options.ignore?.(entry.name) === true) continue;
    if (!entry.isDirectory && !entry.isFile) continue;
    // A file whose name is not UTF-8 fails loudly here rather than going missing from the input.
    const path = usableName(directory, entry, options.stage);
    if (entry.isDirectory) for (const file of await walk(path, options, fileSystem)) files.push(file);
    else files.push(path);
  }
  return files;
}

/** The files one path names, or undefined when it names nothing (so it may still be a glob). */
async function literal(
  path: string,
  options: ExpandPathsOptions,
  fileSystem: FileSystem,
): Promise<string[] | undefined> {
  let info;
  try {
    info = await fileSystem.stat(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw readError(error, path, options.stage, 'opening the file');
  }
  if (info.isFile()) return [path];
  if (info.isDirectory() && options.directories === 'walk') {
    const files = (await walk(path, options, fileSystem)).sort();
    if (files.length > 0) return files;
    throw new TfpipeError('INPUT_NOT_FOUND', 'no file in the directory', {
      stage: options.stage,
      fatal: true,
      position: { file: path },
    });
  }
  throw notAFile(path, options.stage, info.isDirectory());
}

/**
 * The files `paths` name, in the order given: every plugin and the CLI expand their inputs here, so
 * they accept one grammar. Each path is, in this order: an existing regular file, taken as is (even
 * when its name holds glob characters); a directory (see `directories`); else a glob (`*`, `?`,
 * `[a-z]`, `[!a-z]`, `**`, nested `{a,b}`: core's one matcher) whose matches come sorted, dot-names
 * and `ignore`d names left out. `\` separators are read as `/` on Windows.
 * @throws TfpipeError `INPUT_NOT_FOUND` when a path names nothing or a glob matches nothing;
 * `INPUT_NOT_FILE` for a directory (with `directories: 'refuse'`), a FIFO or a device;
 * `INVALID_OPTION` for a bad glob; `IO` when a matching file's name is not UTF-8 or a directory cannot
 * be listed (never skipped silently). All fatal, naming the path.
 */
export async function expandPaths(
  paths: string | readonly string[],
  options: ExpandPathsOptions,
): Promise<string[]> {
  const { stage } = options;
  const fileSystem = fileSystemIn(options.cwd);
  const files: string[] = [];
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    let found = await literal(path, options, fileSystem);
    if (found === undefined && isGlob(path)) {
      const pattern = sep === '/' ? path : path.split(sep).join('/');
      const ignore = options.ignore;
      found = await expandGlob(pattern, { fileSystem, stage, ...(ignore === undefined ? {} : { ignore }) });
      if (found.length === 0) {
        throw new TfpipeError('INPUT_NOT_FOUND', `no file matches ${JSON.stringify(path)}`, {
          stage,
          fatal: true,
        });
      }
    }
    if (found === undefined) {
      await checkReplacedName(fileSystem, path, stage);
      throw new TfpipeError('INPUT_NOT_FOUND', 'no such file', {
        stage,
        fatal: true,
        position: { file: path },
      });
    }
    // A loop, not `push(...found)`: a glob may match more files than a call takes arguments.
    for (const file of found) files.push(file);
  }
  return files;
}
