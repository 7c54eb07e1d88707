import { TfpipeError } from '../errors/tfpipe-error.js';
import { decodeFileName, escapeFileName } from './file-name.js';

/** A directory entry as `fs.promises.readdir(path, { withFileTypes: true, encoding: 'buffer' })` gives it. */
export interface DirectoryEntryBytes {
  /** The name's bytes (names are bytes on Linux; not all of them are UTF-8). */
  readonly name: Uint8Array;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The file system calls path expansion needs: `node:fs/promises` itself fits (pass the module), and
 * core stays free of `node:*` imports (it runs in browsers) while the one walker lives here.
 */
export interface ListingFileSystem {
  readdir(
    path: string,
    options: { withFileTypes: true; encoding: 'buffer' },
  ): Promise<readonly DirectoryEntryBytes[]>;
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean }>;
}

/** A listed entry: its name as text and the facts a walker needs. */
export interface DirectoryEntry {
  /** The name; when `bytes` are not UTF-8 this text does not name the file (see {@link usableName}). */
  readonly name: string;
  /** The name's bytes. */
  readonly bytes: Uint8Array;
  /** True when the name is UTF-8, so `name` opens the file. */
  readonly valid: boolean;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
}

/** `directory/name`, without doubling a `/` and without a leading `./` for the working directory. */
export function joinPath(directory: string, name: string): string {
  if (directory === '') return name;
  return directory.endsWith('/') ? directory + name : `${directory}/${name}`;
}

/**
 * Lists `directory` sorted by name (UTF-16 order, as `Array.prototype.sort`). A directory that does not
 * exist (or is a file) lists as empty for a glob, or is `INPUT_NOT_FOUND` with `missing: 'error'` (a
 * directory the user named); any other failure (permissions, I/O) is an error, never a silent gap in
 * the input.
 * @param missing - what a missing directory gives @default 'empty'
 * @throws TfpipeError `IO` naming the directory, `INPUT_NOT_FOUND` (see `missing`)
 */
export async function listDirectory(
  fileSystem: ListingFileSystem,
  directory: string,
  stage: string,
  missing: 'empty' | 'error' = 'empty',
): Promise<DirectoryEntry[]> {
  let entries: readonly DirectoryEntryBytes[];
  try {
    entries = await fileSystem.readdir(directory === '' ? '.' : directory, {
      withFileTypes: true,
      encoding: 'buffer',
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const absent = code === 'ENOENT' || code === 'ENOTDIR';
    if (absent && missing === 'empty') return [];
    throw new TfpipeError(absent ? 'INPUT_NOT_FOUND' : 'IO', 'cannot list the directory', {
      stage,
      fatal: true,
      cause: error,
      position: { file: directory === '' ? '.' : directory },
      reason: (error as Error).message,
    });
  }
  return entries
    .map((entry) => {
      const { text, valid } = decodeFileName(entry.name);
      return {
        name: text,
        bytes: entry.name,
        valid,
        isFile: entry.isFile(),
        isDirectory: entry.isDirectory(),
        isSymbolicLink: entry.isSymbolicLink(),
      };
    })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/**
 * The path of an entry the caller is about to use, or a loud error when its name is not UTF-8: such a
 * file cannot be opened through a string path, and skipping it would silently drop its records.
 * @throws TfpipeError `IO` naming the file with its bytes escaped (`data/d\xFF.csv`)
 */
export function usableName(directory: string, entry: DirectoryEntry, stage: string): string {
  if (entry.valid) return joinPath(directory, entry.name);
  throw new TfpipeError('IO', 'cannot read a file whose name is not valid UTF-8', {
    stage,
    fatal: true,
    position: { file: joinPath(directory, escapeFileName(entry.bytes)) },
    reason: 'rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest)',
  });
}

/**
 * Refuses, with the real reason, a path typed as an argument that holds U+FFFD and does not exist:
 * Node.js decodes arguments as UTF-8 and replaces bytes that are not, so a file whose name is not
 * UTF-8 cannot be named on the command line at all. Other paths pass (their errors come when opened).
 * @throws TfpipeError `INPUT_NOT_FOUND` naming the path
 */
export async function checkReplacedName(
  fileSystem: Pick<ListingFileSystem, 'stat'>,
  path: string,
  stage: string,
): Promise<void> {
  if (!path.includes('\uFFFD')) return;
  const exists = await fileSystem.stat(path).then(
    () => true,
    () => false,
  );
  if (exists) return;
  throw new TfpipeError('INPUT_NOT_FOUND', 'no such file', {
    stage,
    fatal: true,
    position: { file: path },
    reason:
      'the name holds U+FFFD, which Node.js puts for bytes that are not UTF-8; rename the file to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest)',
  });
}
