import { readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { listDirectory, usableName } from '@tfpipe/core/plugin';
import { TfpipeError } from '@tfpipe/core';
import { compareNames, labelMapFromNames } from '../label-map.js';
import { emptyInputError } from './empty-input.js';
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
  /** Absolute paths left out of the scan (tfpipe's own output inside the root). */
  readonly exclude: readonly string[];
  /** No image at all is no error. */
  readonly allowEmpty: boolean;
}

/** A scan's state: what it leaves out, and what it saw besides images. */
interface Scan {
  readonly extensions: readonly string[];
  /** Excluded directories, as resolved and as real paths. */
  readonly excluded: ReadonlySet<string>;
  readonly realRoot: string;
  readonly otherFiles: Map<string, number>;
}

/**
 * A `root/<class>/<file>` tree, as Keras `image_dataset_from_directory` and torchvision `ImageFolder`
 * read it: each sub-directory is a class, ids follow the class names sorted by UTF-8 bytes (Python's
 * `sorted()`), files inside a class (also in nested folders) are taken in the same order. Hidden
 * entries (`.name`), files directly under the root and the `exclude` paths are ignored.
 * @throws TfpipeError fatal `INPUT_NOT_FOUND`/`IO` when the root cannot be read, `INVALID_OPTION`
 * when `classNames` disagrees with the folders, `IMAGE_UNSUPPORTED`/`INPUT_NOT_FOUND` when no image
 * is found (unless `allowEmpty`)
 */
export async function readClassFolders(root: string, options: ClassFolderOptions): Promise<ImageInput> {
  const entries = await listDirectory(fileSystem, root, STAGE, 'error');
  const scan: Scan = {
    extensions: options.extensions,
    excluded: await excludedPaths(options.exclude),
    realRoot: await realpath(root).catch(() => root),
    otherFiles: new Map(),
  };
  const folders: string[] = [];
  const linked = new Set<string>(); // class folders that are symlinks
  let rootImages = 0;
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (isExcluded(scan, root, entry.name)) {
      if (entry.isDirectory) await refuseExcludedImages(root, entry.name, scan);
      continue;
    }
    if (entry.isFile && options.extensions.includes(path.extname(entry.name).toLowerCase())) rootImages++;
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
  // A class folder of files but no image (an older output folder, TIFFs) would be a class with
  // no example, shifting the ids after it without a word. (An empty folder is an empty class, as in Keras.)
  let imageless: { folder: string; otherFiles: Map<string, number> } | undefined;
  for (const entry of labelMap) {
    if (!folders.includes(entry.name)) continue;
    const otherFiles = new Map<string, number>();
    const images = await listImages(root, entry.name, { ...scan, otherFiles });
    for (const [extension, count] of otherFiles)
      scan.otherFiles.set(extension, (scan.otherFiles.get(extension) ?? 0) + count);
    if (images.length === 0 && otherFiles.size > 0) imageless ??= { folder: entry.name, otherFiles };
    for (const { relative, regular } of images) {
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
  if (tasks.length === 0 && !options.allowEmpty) {
    const findings = { otherFiles: scan.otherFiles, rootImages, extensions: options.extensions };
    throw emptyInputError('the class folders', root, findings);
  }
  if (imageless !== undefined) {
    const findings = { otherFiles: imageless.otherFiles, rootImages: 0, extensions: options.extensions };
    throw emptyInputError(`class folder ${imageless.folder}`, path.join(root, imageless.folder), findings);
  }
  return { tasks, labelMap };
}

interface ListedImage {
  /** Path relative to the root. */
  readonly relative: string;
  /** A regular file (not a symlink), under real directories from its class folder down. */
  readonly regular: boolean;
}

async function listImages(root: string, folder: string, scan: Scan): Promise<ListedImage[]> {
  const found: ListedImage[] = [];
  const entries = await listDirectory(fileSystem, path.join(root, folder), STAGE, 'error');
  entries.sort((left, right) => compareNames(left.name, right.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const extension = path.extname(entry.name).toLowerCase();
    const image = (entry.isFile || entry.isSymbolicLink) && scan.extensions.includes(extension);
    if (entry.isDirectory || image) {
      // Never skip an image (or a folder of them) silently because its name is not UTF-8.
      const relative = path.relative(root, usableName(path.join(root, folder), entry, STAGE));
      if (!entry.isDirectory) {
        // Symlinks are kept here and checked against the root when the image is opened (PATH_ESCAPE).
        found.push({ relative, regular: entry.isFile });
      } else if (isExcluded(scan, root, relative)) {
        await refuseExcludedImages(root, relative, scan);
      } else {
        // A loop, not push(...): a class folder may hold more images than a call takes arguments.
        for (const nested of await listImages(root, relative, scan)) found.push(nested);
      }
    } else if (entry.isFile || entry.isSymbolicLink) {
      scan.otherFiles.set(extension, (scan.otherFiles.get(extension) ?? 0) + 1);
    }
  }
  return found;
}

/** Each excluded path as given (resolved) and, when it exists, as its real path. */
async function excludedPaths(exclude: readonly string[]): Promise<Set<string>> {
  const excluded = new Set<string>();
  for (const item of exclude) {
    excluded.add(path.resolve(item));
    const real = await realpath(item).catch(() => undefined);
    if (real !== undefined) excluded.add(real);
  }
  return excluded;
}

/**
 * An excluded folder (the output) that holds images of the input is a mistake, say an output
 * written into a class folder: leaving it out would drop that class without a word.
 * @throws TfpipeError fatal `INVALID_OPTION`
 */
async function refuseExcludedImages(root: string, relative: string, scan: Scan): Promise<void> {
  const images = await listImages(root, relative, { ...scan, excluded: new Set(), otherFiles: new Map() });
  if (images.length === 0) return;
  const folder = path.join(root, relative);
  throw new TfpipeError(
    'INVALID_OPTION',
    `${folder} is left out of the scan (as the output) but holds images`,
    {
      stage: 'imageSource',
      position: { file: path.join(root, images[0]!.relative) },
      fatal: true,
      reason: `${images.length} image file(s) would be dropped without a word: write the output elsewhere`,
    },
  );
}

function isExcluded(scan: Scan, root: string, relative: string): boolean {
  if (scan.excluded.size === 0) return false;
  return (
    scan.excluded.has(path.resolve(root, relative)) || scan.excluded.has(path.join(scan.realRoot, relative))
  );
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}
