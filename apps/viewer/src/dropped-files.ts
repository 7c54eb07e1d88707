import type { FileSource } from './worker-protocol.js';

/** The most files a dropped folder is walked for; more is refused with a message. @default 100000 */
export const MAX_DROPPED_FILES = 100_000;

/**
 * The entries of a drop, taken while the drop event runs (the browser empties the `DataTransfer`
 * once its handler returns): an item with no entry (a browser without the entries API, a
 * `DataTransfer` a script made) is its `File`.
 */
export function droppedEntries(transfer: DataTransfer): (FileSystemEntry | File)[] {
  return Array.from(transfer.items)
    .filter((item) => item.kind === 'file')
    .map(
      (item) =>
        (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null) ?? item.getAsFile(),
    )
    .filter((entry) => entry !== null);
}

/**
 * The files of dropped entries: a dropped file as it is, a dropped folder walked to every file in it
 * and its subfolders, each known by its path from the dropped folder (`shards/train-00000.tfrecord`,
 * as the Folder… picker names them), so a folder dropped opens as a shard folder.
 * @throws Error when a folder holds more than {@link MAX_DROPPED_FILES} files, or cannot be read
 */
export async function entryFiles(entries: readonly (FileSystemEntry | File)[]): Promise<FileSource[]> {
  const found: FileSource[] = [];
  const walk = async (entry: FileSystemEntry | File): Promise<void> => {
    if (entry instanceof File) {
      found.push({ kind: 'file', file: entry });
    } else if (isFile(entry)) {
      if (found.length >= MAX_DROPPED_FILES) {
        throw new Error(`more than ${MAX_DROPPED_FILES} files dropped: open fewer at a time`);
      }
      const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
      found.push({ kind: 'file', file, path: entry.fullPath.replace(/^\//, '') });
    } else if (isDirectory(entry)) {
      for (const child of await directoryEntries(entry)) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);
  return found;
}

/** Every entry of a folder: its reader hands them out a batch at a time until an empty one. */
async function directoryEntries(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;
const isDirectory = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;
