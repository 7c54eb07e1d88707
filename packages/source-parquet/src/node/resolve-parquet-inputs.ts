import { expandPaths } from '@tfpipe/node-utils';

const STAGE = 'parquetSource';

/** Files Spark, Hadoop and Hive write beside the data: `_SUCCESS`, `_metadata`, `.part-0.crc`, `_temporary/`. */
function isSideFile(name: string): boolean {
  return name.startsWith('_') || name.endsWith('.crc');
}

/**
 * Expands what the user named into Parquet files with node-utils' `expandPaths` (the grammar every
 * plugin shares): a file as is; a directory recursively, sorted (Spark/Hive layout: `part-*.parquet`,
 * `key=value/` partitions); a glob (`*`, `?`, `[…]`, `**`, `{a,b}`). Directories and globs skip hidden
 * and `_`-prefixed entries and `.crc` checksums.
 * @throws TfpipeError `INPUT_NOT_FOUND` when nothing is found; `INVALID_OPTION` for a bad glob; `IO`
 * when a data file's name is not UTF-8
 */
export function resolveParquetInputs(patterns: readonly string[]): Promise<string[]> {
  return expandPaths(patterns, { stage: STAGE, ignore: isSideFile, directories: 'walk' });
}
