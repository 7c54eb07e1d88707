import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { listDirectory, TfpipeError, usableName } from '@tfpipe/core';
import { compareNames, labelMapFromNames } from '../label-map.js';
import type { ImageInput, ImageTask } from './image-task.js';

const STAGE = 'imageSource';
const fileSystem = { readdir, stat };

/** What {@link readClassFolders} needs. */
export interface ClassFolderOptions {
  /** File extensions (lowercase, with the dot) that count as images. */
  readonly extensions: readonly string[];
  /** Fixed class order; classes not listed are an error. Default: the sorted folder names. */
  readonly classNames: readonly string[] | undefined;
  /** The id of the first class. */
  readonly labelBase: number;
}

/**
 * A `root/<class>/<file>` tree, as Keras `image_dataset_from_directory` and torchvision `ImageFolder`
 * read it: each sub-directory is a class, ids follow the class names sorted by UTF-8 bytes (Python's
 * `sorted()`), files inside a class (also in nested folders) are taken in the same order. Hidden
 * entries (`.name`) and files directly under the root are ignored.
 * @throws TfpipeError fatal `INPUT_NOT_FOUND`/`IO` when the root cannot be read, `INVALID_OPTION`
 * when `classNames` disagrees with the folders
 */
export async function readClassFolders(root: string, options: ClassFolderOptions): Promise<ImageInput> {
  const entries = await listDirectory(fileSystem, root, STAGE, 'error');
  const folders: string[] = [];
  const linked = new Set<string>(); // class folders that are symlinks
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    // A folder whose name is not UTF-8 fails loudly: skipping it would drop a whole class.
    if (entry.isDirectory) folders.push(path.basename(usableName(root, entry, STAGE)));
    else if (entry.isSymbolicLink && (await isDirectory(path.join(root, entry.name)))) {
      folders.push(path.basename(usableName(root, entry, STAGE)));
      linked.add(entry.name);
    }
  }
  folders.sort(compareNames);
  const names = options.classNames ?? folders;
  if (options.classNames !== undefined) {
    const unknown = folders.filter((folder) => !options.classNames!.includes(folder));
    if (unknown.length > 0) {
      throw new TfpipeError('INVALID_OPTION', `class folders ${unknown.join(', ')} are not in classNames`, {
        stage: 'imageSource',
        position: { file: root },
        fatal: true,
      });
    }
  }
  const labelMap = labelMapFromNames(names, options.labelBase);
  const tasks: ImageTask[] = [];
  for (const entry of labelMap) {
    if (!folders.includes(entry.name)) continue;
    for (const { relative, regular } of await listImages(root, entry.name, options.extensions)) {
      tasks.push({
        path: path.join(root, relative),
        root,
        listedInside: regular && !linked.has(entry.name),
        filename: relative.split(path.sep).join('/'),
        sourceId: relative.split(path.sep).join('/'),
        label: { id: entry.id, text: entry.name },
      });
    }
  }
  return { tasks, labelMap };
}

interface ListedImage {
  /** Path relative to the root. */
  readonly relative: string;
  /** A regular file (not a symlink), under real directories from its class folder down. */
  readonly regular: boolean;
}

async function listImages(
  root: string,
  folder: string,
  extensions: readonly string[],
): Promise<ListedImage[]> {
  const found: ListedImage[] = [];
  const entries = await listDirectory(fileSystem, path.join(root, folder), STAGE, 'error');
  entries.sort((left, right) => compareNames(left.name, right.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const image =
      (entry.isFile || entry.isSymbolicLink) && extensions.includes(path.extname(entry.name).toLowerCase());
    if (!entry.isDirectory && !image) continue;
    // Never skip an image (or a folder of them) silently because its name is not UTF-8.
    const relative = path.relative(root, usableName(path.join(root, folder), entry, STAGE));
    if (entry.isDirectory) {
      for (const nested of await listImages(root, relative, extensions)) found.push(nested);
    } else {
      // Symlinks are kept here and checked against the root when the image is opened (PATH_ESCAPE).
      found.push({ relative, regular: entry.isFile });
    }
  }
  return found;
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}
