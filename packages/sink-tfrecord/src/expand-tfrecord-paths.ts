import { expandPaths } from '@tfpipe/node-utils';

/** Files a glob or directory never picks up: index files and manifests that sit beside shards. */
const SIDECARS = /\.(idx|manifest\.json)$/;

/**
 * The TFRecord files `paths` name: node-utils' `expandPaths` (one grammar for every plugin: files,
 * globs with `*`, `?`, `[…]`, `**`, `{a,b}`), leaving out the `.idx` and `.manifest.json` files that
 * sit beside shards. Relative paths are read against `cwd`, and the files come back named as given.
 * @param cwd - @default process.cwd()
 * @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE`, `INVALID_OPTION` or `IO` (see `expandPaths`)
 */
export function expandTfrecordPaths(
  paths: string | readonly string[],
  stage: string,
  cwd?: string,
): Promise<string[]> {
  const ignore = (name: string): boolean => SIDECARS.test(name);
  return expandPaths(paths, cwd === undefined ? { stage, ignore } : { stage, ignore, cwd });
}
