import { TfpipeError } from '@tfpipe/core';
import type * as SinkTfrecord from '@tfpipe/sink-tfrecord';
import type * as SinkTfrecordInternal from '@tfpipe/sink-tfrecord/internal';

/** The optional peer packages a pipeline loads only when it names them (or a stage or the queue needs them). */
export type PeerPackage =
  | '@tfpipe/source-csv'
  | '@tfpipe/source-images'
  | '@tfpipe/source-parquet'
  | '@tfpipe/sink-tfrecord'
  | 'bullmq'
  | 'ioredis';

/** True when `error` says that `name` itself is not installed (not a package it imports). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message : '';
  // Node names the package it could not find in quotes; a missing dependency of the peer names another.
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}

/**
 * Imports an optional peer with `load` (a literal `import('…')`, so that bundlers see it). A peer
 * that is not installed is `UNKNOWN_PLUGIN` naming the package to install and what needs it.
 */
export async function importPeer<Module>(
  name: PeerPackage,
  load: () => Promise<Module>,
  neededBy: string,
): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, name)) throw error;
    throw new TfpipeError('UNKNOWN_PLUGIN', `${neededBy} needs ${name}, which is not installed`, {
      stage: 'config',
      fatal: true,
      cause: error,
      reason: `install it beside @tfpipe/pipeline: npm install ${name}`,
    });
  }
}

/** The TFRecord package, for the full shuffle's spill files, the JSON Lines source and staging names. */
export function importSinkTfrecord(
  neededBy: string,
): Promise<typeof SinkTfrecord & typeof SinkTfrecordInternal> {
  return importPeer(
    '@tfpipe/sink-tfrecord',
    async () => ({
      ...(await import('@tfpipe/sink-tfrecord')),
      ...(await import('@tfpipe/sink-tfrecord/internal')),
    }),
    neededBy,
  );
}
