import { TfpipeError } from '@tfpipe/core';
import type { FlagValues } from '../command.js';
import type { InputKind } from '../input-source.js';
import type { SOURCE_FLAGS } from './shared-flags.js';

type SourceFlag = keyof typeof SOURCE_FLAGS;

/** Which input kinds each source flag applies to; any other kind refuses it. */
const FLAG_KINDS: Readonly<Record<SourceFlag, readonly InputKind[]>> = {
  sequence: ['jsonl', 'tfrecord'],
  'max-record-bytes': ['tfrecord'],
  label: ['csv'],
  schema: ['csv'],
  'infer-rows': ['csv'],
  delimiter: ['csv'],
  'max-record-length': ['csv'],
  threads: ['csv'],
  columns: ['parquet'],
  resize: ['images'],
  fit: ['images'],
  format: ['images'],
  quality: ['images'],
  grayscale: ['images'],
  coco: ['images'],
  voc: ['images'],
  'max-file-bytes': ['images'],
};

const KIND_NAMES: Readonly<Record<InputKind, string>> = {
  csv: 'CSV',
  jsonl: 'JSON Lines',
  parquet: 'Parquet',
  images: 'images',
  tfrecord: 'TFRecord',
};

/**
 * Refuses a source flag that does nothing for the input's kind (`--coco` or `--resize` on a CSV), so a
 * flag is never silently ignored, and `--fit` without the `--resize` it qualifies.
 * @throws TfpipeError `INVALID_OPTION` naming the flag, the input and what it was read as
 */
export function checkSourceFlags(kind: InputKind, values: FlagValues, input: string): void {
  for (const flag of Object.keys(FLAG_KINDS) as SourceFlag[]) {
    if (values[flag] === undefined || FLAG_KINDS[flag].includes(kind)) continue;
    const applies = FLAG_KINDS[flag].map((other) => KIND_NAMES[other]).join(' or ');
    throw new TfpipeError('INVALID_OPTION', `--${flag} applies to ${applies} input`, {
      stage: 'cli',
      fatal: true,
      reason: `${input} is read as ${KIND_NAMES[kind]}`,
    });
  }
  if (values.fit !== undefined && values.resize === undefined) {
    throw new TfpipeError('INVALID_OPTION', '--fit needs --resize WxH', { stage: 'cli', fatal: true });
  }
}
