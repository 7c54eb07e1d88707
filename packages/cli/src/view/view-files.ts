import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { expandTfrecordPaths } from '@tfpipe/sink-tfrecord/internal';

/** A file `tfpipe view` serves: what the page calls it, where it is, how big it is. */
export interface ViewFile {
  /** The name the page shows (the path as given, or `DIR/name` for a directory's files). */
  readonly name: string;
  /** Its path on disk. */
  readonly path: string;
  /** Its size, in bytes. */
  readonly size: number;
}

/** Files beside shards that are not records: DALI index files and tfpipe manifests. */
export const SIDECAR = /\.(idx|manifest\.json)$/;

/**
 * The regular files named by `FILES|DIR` arguments: a directory stands for the files directly in it
 * (not its sub-directories or dot-files; its `.idx` and manifest sidecars too, which the page checks
 * and shows), a glob for its matches.
 * @throws TfpipeError `INPUT_NOT_FOUND` for a missing path or an empty directory
 */
export async function viewFiles(paths: readonly string[], cwd: string): Promise<ViewFile[]> {
  const files: ViewFile[] = [];
  for (const given of paths) {
    const info = await stat(path.resolve(cwd, given)).catch(() => undefined);
    if (info?.isDirectory() === true) {
      const entries = await readdir(path.resolve(cwd, given), { withFileTypes: true });
      const names = entries
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
        .map((entry) => entry.name);
      if (names.every((name) => SIDECAR.test(name)))
        throw notFound(`no TFRecord file in the directory ${given}`, given);
      for (const name of names.sort()) files.push(await viewFile(path.join(given, name), cwd));
      continue;
    }
    const expanded = info === undefined ? await expandTfrecordPaths(given, 'view', cwd) : [given];
    for (const file of expanded) files.push(await viewFile(file, cwd));
  }
  return files;
}

async function viewFile(name: string, cwd: string): Promise<ViewFile> {
  const resolved = path.resolve(cwd, name);
  const info = await stat(resolved).catch(() => undefined);
  if (info === undefined || !info.isFile()) throw notFound(`no such file: ${name}`, name);
  return { name, path: resolved, size: info.size };
}

function notFound(message: string, file: string): TfpipeError {
  return new TfpipeError('INPUT_NOT_FOUND', message, { stage: 'view', position: { file } });
}
