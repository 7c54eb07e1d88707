import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { compareNames, labelMapFromNames } from '../label-map.js';
import { parseCsvList, type ListEntry } from './csv-list.js';
import type { ImageInput, ImageTask, LabelMap } from './image-task.js';
import { readInputText } from './read-input-file.js';
import { joinInside } from './safe-path.js';

/** What {@link readImageList} needs. */
export interface ImageListOptions {
  /** Directory the listed paths are relative to. */
  readonly root: string;
  /** Fixed class order for name labels. */
  readonly classNames: readonly string[] | undefined;
  /** The id of the first class when labels are names. */
  readonly labelBase: number;
}

/** List files read as one image path per line: no header, no label, no other column. */
const LINES_EXTENSIONS = new Set(['.txt', '.lst']);

/**
 * A list file: JSON Lines (`.jsonl`/`.ndjson`) of objects with `path` (and `label`, extras); one path
 * per line (`.txt`/`.lst`); else CSV with a header row naming a `path` column (and optionally `label`
 * and any extra columns), read by `@tfpipe/source-csv`, which only this needs. Paths are relative to
 * `root`. Labels that are all integers are used as ids; otherwise they are class names,
 * numbered from `labelBase` in sorted (UTF-8 byte) order or in `classNames` order.
 * @throws TfpipeError fatal `INPUT_NOT_FOUND`, `CSV_PARSE`, `CSV_HEADER`, `JSON_PARSE`; `INVALID_OPTION`
 * for a CSV list without `@tfpipe/source-csv` installed
 */
export async function readImageList(file: string, options: ImageListOptions): Promise<ImageInput> {
  const extension = path.extname(file).toLowerCase();
  const entries =
    extension === '.jsonl' || extension === '.ndjson'
      ? parseJsonLines(await readInputText(file), file)
      : LINES_EXTENSIONS.has(extension)
        ? parseLines(await readInputText(file))
        : await parseCsvList(file);
  const labels = entries
    .map((entry) => entry.label)
    .filter((label) => label !== undefined && label !== '')
    .map(labelText);
  const numeric = labels.every((label) => /^-?\d+$/.test(label) && Number.isSafeInteger(Number(label)));
  let labelMap: LabelMap | undefined;
  if (!numeric || options.classNames !== undefined) {
    const names = options.classNames ?? [...new Set(labels)].sort(compareNames);
    labelMap = labelMapFromNames(names, options.labelBase);
  }
  const tasks = entries.map((entry): ImageTask => {
    const position = { file, line: entry.line };
    const relative = typeof entry.path === 'string' ? entry.path : '';
    const base = {
      root: options.root,
      filename: relative,
      sourceId: relative,
      line: entry.line,
      extra: entry.extra,
    };
    try {
      if (relative === '')
        throw new TfpipeError('IMAGE_ANNOTATION', 'the path cell is empty', {
          stage: 'imageSource',
          position,
        });
      const task: ImageTask = { ...base, path: joinInside(options.root, relative, position) };
      if (entry.label === undefined || entry.label === '') return task;
      if (labelMap === undefined) return { ...task, label: { id: Number(entry.label), text: undefined } };
      const name = labelText(entry.label);
      const found = labelMap.find((item) => item.name === name);
      if (found === undefined) {
        throw new TfpipeError('IMAGE_ANNOTATION', `label "${name}" is not in classNames`, {
          stage: 'imageSource',
          position,
        });
      }
      return { ...task, label: { id: found.id, text: found.name } };
    } catch (error) {
      return { ...base, path: path.join(options.root, relative), error: error as TfpipeError };
    }
  });
  return labelMap === undefined ? { tasks } : { tasks, labelMap };
}

function parseLines(text: string): ListEntry[] {
  const entries: ListEntry[] = [];
  text.split('\n').forEach((content, index) => {
    const imagePath = content.endsWith('\r') ? content.slice(0, -1) : content;
    if (imagePath.trim() !== '')
      entries.push({ line: index + 1, path: imagePath, label: undefined, extra: {} });
  });
  return entries;
}

function parseJsonLines(text: string, file: string): ListEntry[] {
  const entries: ListEntry[] = [];
  text.split('\n').forEach((content, index) => {
    if (content.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      throw new TfpipeError('JSON_PARSE', 'malformed JSON Lines list', {
        stage: 'imageSource',
        position: { file, line: index + 1 },
        cause: error,
        fatal: true,
        reason: (error as Error).message,
      });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TfpipeError('JSON_PARSE', 'each JSON Lines entry must be an object', {
        stage: 'imageSource',
        position: { file, line: index + 1 },
        fatal: true,
      });
    }
    const { path: imagePath, label, ...extra } = value as Record<string, unknown>;
    entries.push({ line: index + 1, path: imagePath, label, extra });
  });
  return entries;
}

/** A label cell as text: strings as they are, numbers and booleans printed, anything else as JSON. */
function labelText(label: unknown): string {
  if (typeof label === 'string') return label;
  if (typeof label === 'number' || typeof label === 'boolean' || typeof label === 'bigint')
    return String(label);
  return JSON.stringify(label);
}
