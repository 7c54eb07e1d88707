import { closure, compileGlob, matchesSegment, type GlobSegment } from './glob-pattern.js';
import {
  joinPath,
  listDirectory,
  usableName,
  type DirectoryEntry,
  type ListingFileSystem,
} from './list-directory.js';

/** What {@link expandGlob} takes besides the pattern. */
export interface ExpandGlobOptions {
  /** The file system to walk: pass `node:fs/promises`. */
  readonly fileSystem: ListingFileSystem;
  /** The stage named in errors. */
  readonly stage: string;
  /**
   * Entries a wildcard or `**` never picks up, beyond dot-names (a plugin's side files: `.idx`
   * indexes, Spark's `_SUCCESS`). Names given literally in the pattern are always taken.
   * @default none
   */
  readonly ignore?: (name: string) => boolean;
}

/**
 * The regular files (symlinks followed) a glob names, sorted, each once. One walker for every plugin:
 * each (directory, pattern position) is visited once and each directory listed once, so time is linear
 * in the tree and the pattern (`**` ten times costs what it costs once). Relative patterns give paths
 * relative to the working directory (`data/a.csv`, or `./data/a.csv` for `./data/*.csv`).
 * @throws TfpipeError `INVALID_OPTION` for a bad pattern ({@link compileGlob}); `IO` when a directory
 * cannot be listed or a matching name is not UTF-8 (never skipped silently)
 */
export async function expandGlob(pattern: string, options: ExpandGlobOptions): Promise<string[]> {
  const compiled = compileGlob(pattern);
  const listings = new Map<string, Promise<DirectoryEntry[]>>();
  const list = (directory: string): Promise<DirectoryEntry[]> => {
    let listing = listings.get(directory);
    if (listing === undefined) {
      listing = listDirectory(options.fileSystem, directory, options.stage);
      listings.set(directory, listing);
    }
    return listing;
  };
  const candidates = new Set<string>();
  for (const { absolute, segments } of compiled.alternatives) {
    const visited = new Set<string>();
    const visit = async (directory: string, states: Set<number>): Promise<void> => {
      const fresh = [...states].filter((state) => !visited.has(`${state}\0${directory}`));
      if (fresh.length === 0) return;
      for (const state of fresh) visited.add(`${state}\0${directory}`);
      if (fresh.includes(segments.length)) candidates.add(directory);
      const children = new Map<string, Set<number>>();
      const add = (path: string, state: number): void => {
        const set = children.get(path) ?? new Set<number>();
        for (const next of closure(segments, [state])) set.add(next);
        children.set(path, set);
      };
      for (const state of fresh) {
        const segment = segments[state];
        if (segment?.type === 'literal') add(joinPath(directory, segment.text), state + 1);
      }
      if (fresh.some((state) => isWild(segments[state]))) {
        for (const entry of await list(directory)) {
          if (options.ignore?.(entry.name) === true) continue;
          for (const state of fresh) {
            const segment = segments[state];
            if (!isWild(segment) || !matchesSegment(segment, entry.name)) continue;
            // `**` descends into real directories only: a symlink loop cannot make the walk endless.
            if (segment.type === 'globstar' && !entry.isDirectory) continue;
            const next = segment.type === 'globstar' ? state : state + 1;
            // A plain file only matters where the pattern ends: `*/x.csv` never reads a file `a.txt`.
            const ends = closure(segments, [next]).has(segments.length);
            if (!ends && !entry.isDirectory && !entry.isSymbolicLink) continue;
            add(usableName(directory, entry, options.stage), next);
          }
        }
      }
      for (const [path, next] of children) await visit(path, next);
    };
    await visit(absolute ? '/' : '', closure(segments, [0]));
  }
  const files: string[] = [];
  for (const candidate of candidates) {
    if (candidate === '' || candidate === '/') continue;
    const info = await options.fileSystem.stat(candidate).catch(() => undefined);
    if (info?.isFile() === true) files.push(candidate);
  }
  return files.sort();
}

function isWild(segment: GlobSegment | undefined): segment is Exclude<GlobSegment, { type: 'literal' }> {
  return segment !== undefined && segment.type !== 'literal';
}
