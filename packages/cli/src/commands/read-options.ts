import type { PayloadType } from '@tfpipe/core';
import { readManifest, type TfrecordCompression } from '@tfpipe/sink-tfrecord';
import type { FlagValues } from '../command.js';
import { booleanFlag, byteSizeFlag, choiceFlag } from '../flags.js';

/** Reader options from the shared flags. */
export function readOptions(values: FlagValues): {
  compression: TfrecordCompression | 'auto';
  maxRecordBytes?: number;
} {
  const compression = choiceFlag(values, 'compression', ['auto', 'none', 'gzip', 'zlib'] as const) ?? 'auto';
  const maxRecordBytes = byteSizeFlag(values, 'max-record-bytes');
  return maxRecordBytes === undefined ? { compression } : { compression, maxRecordBytes };
}

/** The payload type: `--sequence`, else the manifest beside the first file, else Example. */
export async function payloadTypeOf(values: FlagValues, firstFile: string | undefined): Promise<PayloadType> {
  if (booleanFlag(values, 'sequence')) return 'SequenceExample';
  if (firstFile === undefined) return 'Example';
  const manifest = await readManifest(firstFile);
  return manifest?.payloadType ?? 'Example';
}
