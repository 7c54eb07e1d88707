import type { DirectoryEntryBytes, ListingFileSystem } from '../list-directory.js';

/** A directory: names to files (their text), directories, or symlinks to a path from the root. */
export interface MemoryTree {
  readonly [name: string]: string | MemoryTree | { readonly symlinkTo: string };
}

const isLink = (node: unknown): node is { symlinkTo: string } =>
  typeof node === 'object' && node !== null && 'symlinkTo' in node;

/**
 * An in-memory {@link ListingFileSystem} for tests that also run in the edge runtime. With `latin1`,
 * names are raw bytes (each character one byte), to hold names that are not UTF-8.
 */
export function memoryFileSystem(root: MemoryTree, latin1 = false): ListingFileSystem {
  const encode = (name: string): Uint8Array =>
    latin1 ? Uint8Array.from(name, (char) => char.charCodeAt(0)) : new TextEncoder().encode(name);
  const decode = (name: string): string => (latin1 ? new TextDecoder().decode(encode(name)) : name);
  const resolve = (path: string): MemoryTree[string] | MemoryTree | undefined => {
    let node: MemoryTree[string] | MemoryTree | undefined = root;
    for (const part of path.split('/').filter((name) => name !== '' && name !== '.')) {
      if (isLink(node)) node = resolve(node.symlinkTo);
      if (typeof node !== 'object' || isLink(node)) return undefined;
      const directory: MemoryTree = node;
      const key = Object.keys(directory).find((name) => decode(name) === part);
      node = key === undefined ? undefined : directory[key];
    }
    return isLink(node) ? resolve(node.symlinkTo) : node;
  };
  const missing = (path: string): Error =>
    Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' });
  return {
    readdir(path) {
      const node = resolve(path);
      if (typeof node !== 'object' || isLink(node)) return Promise.reject(missing(path));
      return Promise.resolve(
        Object.entries(node).map(([name, child]): DirectoryEntryBytes => ({
          name: encode(name),
          isFile: () => typeof child === 'string',
          isDirectory: () => typeof child === 'object' && !isLink(child),
          isSymbolicLink: () => isLink(child),
        })),
      );
    },
    stat(path) {
      const node = resolve(path);
      if (node === undefined) return Promise.reject(missing(path));
      return Promise.resolve({
        isFile: () => typeof node === 'string',
        isDirectory: () => typeof node === 'object',
      });
    },
  };
}
