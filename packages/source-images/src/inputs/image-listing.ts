import { createHash } from 'node:crypto';
import { TfpipeError } from '@tfpipe/core';
import type { ImageInput } from './image-task.js';

/** Plain JSON of what a task says (an error by its code and message, a bigint as text). */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (TfpipeError.is(value)) return { code: value.code, message: value.message };
  return value;
}

/**
 * SHA-256 (hex) of an input's listing: every image task in order (paths, names, labels, objects,
 * extra columns) and the label map. Two listings with the same digest give the same records and
 * label map for the same options.
 */
export function listingDigest(input: ImageInput): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(input.labelMap ?? null, replacer));
  hash.update(`\n${input.tasks.length}\n`);
  for (const task of input.tasks) hash.update(`${JSON.stringify(task, replacer)}\n`);
  return hash.digest('hex');
}

/**
 * The tasks at `ranges` of the input's order, each keeping its whole-input index for error positions.
 * @throws TfpipeError `INPUT_CHANGED` (fatal) for a range beyond the input
 */
export function selectRanges(
  input: ImageInput,
  ranges: readonly (readonly [number, number])[],
  file: string,
): ImageInput & { readonly recordIndexes: readonly number[] } {
  const tasks: ImageInput['tasks'][number][] = [];
  const recordIndexes: number[] = [];
  for (const [start, end] of ranges) {
    if (end > input.tasks.length) {
      throw new TfpipeError(
        'INPUT_CHANGED',
        `images ${start} to ${end - 1} were asked for, the input lists ${input.tasks.length}`,
        {
          stage: 'imageSource',
          fatal: true,
          position: { file },
          reason: 'plan again over the input as it is now',
        },
      );
    }
    for (let index = start; index < end; index++) {
      tasks.push(input.tasks[index]!);
      recordIndexes.push(index);
    }
  }
  return { ...input, tasks, recordIndexes };
}
