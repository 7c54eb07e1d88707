import { readdir, stat } from 'node:fs/promises';
import { checkReplacedName, expandGlob, isGlob, listDirectory, usableName } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';

const STAGE = 'parquetSource';
const fileSystem = { readdir, stat };

/** Files Spark, Hadoop and Hive write beside the data: `_SUCCESS`, `_metadata`, `.part-0.crc`, `_temporary/`. */
function isDataName(name: string): boolean {
  return !name.startsWith('.') && !name.startsWith('_') && !name.endsWith('.crc');
}

async function walk(directory: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await listDirectory(fileSystem, directory, STAGE)) {
    if (!isDataName(entry.name) || !(entry.isDirectory || entry.isFile)) continue;
    // A data file whose name is not UTF-8 fails loudly here rather than going missing from the output.
    const full = usableName(directory, entry, STAGE);
    if (entry.isDirectory) for (const file of await walk(full)) files.push(file);
    else files.push(full);
  }
  return files;
}

/**
 * Expands what the user named into Parquet files, sorted: a file as is; a directory recursively
 * (Spark/Hive layout: `part-*.parquet`, `key=value/` partitions), skipping hidden and `_`-prefixed
 * entries and `.crc` checksums; a glob (`*`, `?`, `[…]`, `**`, `{a,b}`: core's one matcher, with the
 * same entries skipped). Nothing found → `INPUT_NOT_FOUND`; a bad glob → `INVALID_OPTION`; a data file
 * whose name is not UTF-8 → `IO`.
 */
export async function resolveParquetInputs(patterns: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    let info;
    try {
      info = await stat(pattern);
    } catch {
      info = undefined;
    }
    let found: string[];
    if (info?.isFile() === true) found = [pattern];
    else if (info?.isDirectory() === true) found = (await walk(pattern)).sort();
    else if (isGlob(pattern)) {
      found = await expandGlob(pattern, { fileSystem, stage: STAGE, ignore: (name) => !isDataName(name) });
    } else {
      await checkReplacedName(fileSystem, pattern, STAGE);
      found = [];
    }
    if (found.length === 0) {
      throw new TfpipeError('INPUT_NOT_FOUND', info === undefined ? 'no such file' : 'no Parquet files', {
        stage: STAGE,
        fatal: true,
        position: { file: pattern },
      });
    }
    for (const file of found) files.push(file);
  }
  return files;
}
