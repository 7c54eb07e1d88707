import { TfpipeError } from '@tfpipe/core';
import type { InputKind } from '../input-source.js';

/** The flags of each source, for `tfpipe convert`. */
export const SOURCE_FLAGS = {
  sequence: { type: 'boolean' },
  'max-record-bytes': { type: 'string' },
  label: { type: 'string' },
  schema: { type: 'string' },
  'infer-rows': { type: 'string' },
  delimiter: { type: 'string' },
  'max-record-length': { type: 'string' },
  resize: { type: 'string' },
  fit: { type: 'string' },
  format: { type: 'string' },
  quality: { type: 'string' },
  grayscale: { type: 'boolean' },
  'max-file-bytes': { type: 'string' },
  coco: { type: 'string' },
  voc: { type: 'string' },
  columns: { type: 'string' },
} as const;

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

type Values = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;

/**
 * Refuses a source flag that does nothing for the input's kind (`--coco` or `--resize` on a CSV), so a
 * flag is never silently ignored, and `--fit` without the `--resize` it qualifies.
 * @throws TfpipeError `INVALID_OPTION` naming the flag, the input and what it was read as
 */
export function checkSourceFlags(kind: InputKind, values: Values, input: string): void {
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

/** Help lines for {@link SOURCE_FLAGS}. */
export const SOURCE_FLAGS_HELP = `Input (IN is picked by its extension or, for a directory, by what it holds; a flag for
another kind of input is refused):
  .jsonl                Examples in protobuf's JSON form, one per line (--sequence: SequenceExamples)
  TFRecord files        re-shard, recompress or merge (payloads are copied, not re-encoded);
                        --sequence, --max-record-bytes SIZE (default 256M)
  .csv / .tsv           --label COLUMN (string labels become ids), --schema FILE, --infer-rows N|all,
                        --delimiter C, --max-record-length N (characters per record, default 64Mi)
  .parquet / a folder   --columns a,b,c
  an image folder       class folders root/<class>/<file>; --coco FILE or --voc DIR for detection sets;
                        --resize WxH, --fit cover|contain|fill|inside, --format jpeg|png|webp,
                        --quality 1-100, --grayscale, --max-file-bytes SIZE (refuse larger image
                        files, default 256M); an OUT inside the image folder is not read as a class`;
