import { isAbsolute, resolve } from 'node:path';
import { expandTfrecordPaths } from '@tfpipe/sink-tfrecord/internal';
import { requirePositionals } from '../flags.js';
import type { CliIo } from '../io.js';

/**
 * A path the user typed, to open: read against `io.cwd`. Left as typed when `io.cwd` is the process's
 * own directory, so messages and listings keep showing the name the user gave.
 */
export function inCwd(io: CliIo, path: string): string {
  return isAbsolute(path) || resolve(io.cwd) === process.cwd() ? path : resolve(io.cwd, path);
}

/**
 * The TFRecord files a read command's FILE arguments name (files, globs, read against `io.cwd`).
 * @param what - the usage line's name for the argument, e.g. `'FILE to count'`
 * @throws TfpipeError `USAGE` without arguments; `INPUT_NOT_FOUND` … (see `expandTfrecordPaths`)
 */
export async function tfrecordFiles(
  positionals: readonly string[],
  what: string,
  stage: string,
  io: CliIo,
): Promise<string[]> {
  const files = await expandTfrecordPaths(requirePositionals(positionals, what), stage, io.cwd);
  return files.map((file) => inCwd(io, file));
}
