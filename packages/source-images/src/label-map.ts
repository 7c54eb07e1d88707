import { rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import type { LabelMap } from './inputs/image-task.js';

/** How a label map is written. */
export type LabelMapFormat = 'txt' | 'json' | 'pbtxt';

const encoder = new TextEncoder();

/**
 * Orders class names by their UTF-8 bytes, which is Unicode code point order: what Python's
 * `sorted()` gives Keras `image_dataset_from_directory` and torchvision `ImageFolder`. (JavaScript's
 * default sort compares UTF-16 units and disagrees above U+FFFF.)
 */
export function compareNames(left: string, right: string): number {
  const a = encoder.encode(left);
  const b = encoder.encode(right);
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const difference = a[index]! - b[index]!;
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** Ids `base`, `base + 1`, … for `names` in the order given. */
export function labelMapFromNames(names: readonly string[], base: number): LabelMap {
  return names.map((name, index) => ({ id: base + index, name }));
}

/**
 * The label map as text:
 * - `txt`: TF-slim's `labels.txt` (slim/datasets/dataset_utils.py `write_label_file`), one
 *   `id:name` line per class, e.g. `0:cat`;
 * - `json`: an object from class name to id, as torchvision's `ImageFolder.class_to_idx`;
 * - `pbtxt`: the TF Object Detection API's `StringIntLabelMap` text proto (`item { id: 1 name: "cat" }`).
 *   That API reserves id 0 for `background`, so a map with another class at id 0 is refused: build
 *   detection maps from 1 (`labelBase: 1`).
 * @throws TfpipeError `INVALID_OPTION` for a pbtxt map that uses id 0 for a real class.
 */
export function formatLabelMap(map: LabelMap, format: LabelMapFormat): string {
  switch (format) {
    case 'txt':
      return map.map((entry) => `${entry.id}:${entry.name}\n`).join('');
    case 'json': {
      const object: Record<string, number> = {};
      for (const entry of map) object[entry.name] = entry.id;
      return `${JSON.stringify(object, null, 2)}\n`;
    }
    case 'pbtxt':
      return map
        .map((entry) => {
          if (entry.id === 0 && entry.name !== 'background') {
            throw new TfpipeError(
              'INVALID_OPTION',
              `label map id 0 is "${entry.name}", but the TF Object Detection API reserves id 0 for the background`,
              { fatal: true, reason: 'number classes from 1 (labelBase: 1)' },
            );
          }
          return `item {\n  id: ${entry.id}\n  name: ${JSON.stringify(entry.name)}\n}\n`;
        })
        .join('\n');
  }
}

/**
 * Writes `map` to `file` (through a temporary file and a rename, so a reader never sees half of it).
 * The format follows the extension unless given: `.txt` → `txt`, `.json` → `json`, `.pbtxt` → `pbtxt`.
 * @throws TfpipeError `INVALID_OPTION` (unknown extension) or `OUTPUT_UNWRITABLE`.
 */
export async function writeLabelMap(file: string, map: LabelMap, format?: LabelMapFormat): Promise<void> {
  const chosen = format ?? formatFromExtension(file);
  const text = formatLabelMap(map, chosen);
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (error) {
    throw new TfpipeError('OUTPUT_UNWRITABLE', 'cannot write the label map', {
      position: { file },
      cause: error,
      fatal: true,
      reason: (error as Error).message,
    });
  }
}

function formatFromExtension(file: string): LabelMapFormat {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.txt') return 'txt';
  if (extension === '.json') return 'json';
  if (extension === '.pbtxt') return 'pbtxt';
  throw new TfpipeError('INVALID_OPTION', `cannot tell the label map format from "${file}"`, {
    fatal: true,
    reason: 'use a .txt, .json or .pbtxt name, or pass the format',
  });
}
