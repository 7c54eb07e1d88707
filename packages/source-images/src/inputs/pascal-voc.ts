import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { compareNames, labelMapFromNames } from '../label-map.js';
import type { ImageInput, ImageObject, ImageTask } from './image-task.js';
import { childOf, parseXml, type XmlElement } from './parse-xml.js';
import { inputError, readInputText } from './read-input-file.js';
import { joinInside } from './safe-path.js';

/** What {@link readPascalVoc} needs. */
export interface PascalVocOptions {
  /** Directory holding the images the XML files name. */
  readonly images: string;
  /** Fixed class order; otherwise the sorted names found in the annotations. */
  readonly classNames: readonly string[] | undefined;
  /** The id of the first class. */
  readonly labelBase: number;
  /** Leave out objects marked `difficult`, as create_pascal_tf_record.py's flag does. */
  readonly ignoreDifficult: boolean;
}

interface ParsedVoc {
  readonly file: string;
  readonly filename?: string;
  readonly size?: { width: number; height: number };
  readonly objects: (Omit<ImageObject, 'label' | 'text'> & { name: string })[];
  readonly error?: TfpipeError;
}

/**
 * A directory of Pascal VOC XML annotations (one per image, taken in sorted order). Each becomes one
 * image, `<filename>` resolved inside `images`, with its objects' `bndbox`, `name`, `pose`,
 * `truncated` and `difficult`, as TF's create_pascal_tf_record.py reads them.
 * @throws TfpipeError fatal `INPUT_NOT_FOUND`/`IO` when the directory cannot be read; a bad XML file
 * becomes that image's `IMAGE_ANNOTATION` error
 */
export async function readPascalVoc(directory: string, options: PascalVocOptions): Promise<ImageInput> {
  let names: string[];
  try {
    names = (await readdir(directory))
      .filter((name) => name.toLowerCase().endsWith('.xml'))
      .sort(compareNames);
  } catch (error) {
    throw inputError(error, directory);
  }
  const parsed: ParsedVoc[] = [];
  for (const name of names) {
    const file = path.join(directory, name);
    // Stat before reading: a FIFO named `x.xml` is refused, not waited on.
    const text = await readInputText(file);
    try {
      parsed.push(parseVoc(text, file, options.ignoreDifficult));
    } catch (error) {
      // Only this file's own errors wait for the image's turn (and `skip`); anything else is a bug.
      if (!TfpipeError.is(error)) throw error;
      parsed.push({ file, objects: [], error });
    }
  }
  const classes =
    options.classNames ??
    [...new Set(parsed.flatMap((item) => item.objects.map((object) => object.name)))].sort(compareNames);
  const labelMap = labelMapFromNames(classes, options.labelBase);
  const ids = new Map(labelMap.map((entry) => [entry.name, entry.id]));
  const tasks = parsed.map((item): ImageTask => {
    const filename = item.filename ?? path.basename(item.file, path.extname(item.file));
    const position = { file: item.file };
    const base = {
      root: options.images,
      filename,
      sourceId: filename,
      annotation: path.basename(item.file),
      detection: 'voc' as const,
    };
    let error = item.error;
    let imagePath = path.join(options.images, filename);
    const objects: ImageObject[] = [];
    try {
      imagePath = joinInside(options.images, filename, position);
      for (const object of item.objects) {
        const id = ids.get(object.name);
        if (id === undefined) {
          throw new TfpipeError('IMAGE_ANNOTATION', `class "${object.name}" is not in classNames`, {
            stage: 'imageSource',
            position: { ...position, annotation: object.annotation },
          });
        }
        objects.push({ ...object, label: id, text: object.name });
      }
    } catch (caught) {
      error ??= caught as TfpipeError;
    }
    const task = {
      ...base,
      path: imagePath,
      objects,
      ...(item.size === undefined ? {} : { declaredSize: item.size }),
    };
    return error === undefined ? task : { ...task, error };
  });
  return { tasks, labelMap };
}

function parseVoc(text: string, file: string, ignoreDifficult: boolean): ParsedVoc {
  const root = parseXml(text, file);
  if (root.name !== 'annotation')
    throw annotationError(file, root, `the root element is <${root.name}>, not <annotation>`);
  const filename = childOf(root, 'filename')?.text.trim();
  if (filename === undefined || filename === '') throw annotationError(file, root, '<filename> is missing');
  const sizeElement = childOf(root, 'size');
  const size =
    sizeElement === undefined
      ? undefined
      : { width: integer(file, sizeElement, 'width'), height: integer(file, sizeElement, 'height') };
  const objects: ParsedVoc['objects'] = [];
  root.children
    .filter((child) => child.name === 'object')
    .forEach((element, index) => {
      const annotation = `object ${index}`;
      const name = childOf(element, 'name')?.text.trim();
      if (name === undefined || name === '')
        throw annotationError(file, element, `${annotation} has no <name>`);
      const difficult = flag(file, element, 'difficult');
      if (ignoreDifficult && difficult === 1) return;
      const box = childOf(element, 'bndbox');
      if (box === undefined) throw annotationError(file, element, `${annotation} has no <bndbox>`);
      objects.push({
        name,
        annotation,
        xmin: number(file, box, 'xmin'),
        ymin: number(file, box, 'ymin'),
        xmax: number(file, box, 'xmax'),
        ymax: number(file, box, 'ymax'),
        difficult,
        truncated: flag(file, element, 'truncated'),
        view: childOf(element, 'pose')?.text.trim() ?? 'Unspecified',
      });
    });
  return size === undefined ? { file, filename, objects } : { file, filename, size, objects };
}

function number(file: string, parent: XmlElement, name: string): number {
  const element = childOf(parent, name);
  const text = element?.text.trim() ?? '';
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) {
    throw annotationError(file, element ?? parent, `<${name}> must be a number, got ${JSON.stringify(text)}`);
  }
  return value;
}

function integer(file: string, parent: XmlElement, name: string): number {
  const value = number(file, parent, name);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw annotationError(file, parent, `<${name}> must be a positive integer`);
  return value;
}

function flag(file: string, parent: XmlElement, name: string): number {
  const text = childOf(parent, name)?.text.trim();
  if (text === undefined || text === '') return 0;
  if (text !== '0' && text !== '1')
    throw annotationError(file, parent, `<${name}> must be 0 or 1, got ${JSON.stringify(text)}`);
  return Number(text);
}

function annotationError(file: string, element: XmlElement, reason: string): TfpipeError {
  return new TfpipeError('IMAGE_ANNOTATION', 'bad Pascal VOC annotation', {
    stage: 'imageSource',
    position: { file, line: element.line },
    reason,
  });
}
