import type { PayloadType } from '@tfpipe/core';
import { readManifest, type TfrecordCompression } from '@tfpipe/sink-tfrecord';
import { booleanFlag, byteSizeFlag, choiceFlag } from '../flags.js';

type Values = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;

/** The flags every reading command shares. */
export const READ_FLAGS = {
  compression: { type: 'string' },
  sequence: { type: 'boolean' },
  'max-record-bytes': { type: 'string' },
} as const;

/** Help lines for {@link READ_FLAGS}. */
export const READ_FLAGS_HELP = `  --compression C       auto (default: detected from the first bytes), none, gzip or zlib
  --sequence            the records are SequenceExamples (default: the manifest's payload type, else Example)
  --max-record-bytes N  refuse records longer than N bytes (default 256M)`;

/** Reader options from the shared flags. */
export function readOptions(values: Values): {
  compression: TfrecordCompression | 'auto';
  maxRecordBytes?: number;
} {
  const compression = choiceFlag(values, 'compression', ['auto', 'none', 'gzip', 'zlib'] as const) ?? 'auto';
  const maxRecordBytes = byteSizeFlag(values, 'max-record-bytes');
  return maxRecordBytes === undefined ? { compression } : { compression, maxRecordBytes };
}

/** The payload type: `--sequence`, else the manifest beside the first file, else Example. */
export async function payloadTypeOf(values: Values, firstFile: string | undefined): Promise<PayloadType> {
  if (booleanFlag(values, 'sequence')) return 'SequenceExample';
  if (firstFile === undefined) return 'Example';
  const manifest = await readManifest(firstFile);
  return manifest?.payloadType ?? 'Example';
}
