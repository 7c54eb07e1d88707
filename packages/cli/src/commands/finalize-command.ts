import type { Command } from '../command.js';

/** `tfpipe finalize PLAN`: the manifest, once every index is committed. */
export const finalizeCommand: Command = {
  name: 'finalize',
  summary: 'check every shard of a plan, then write the manifest and reader specs',
  usage: `Usage: tfpipe finalize PLAN [--json]

Checks every index's commit marker and files, then writes the reader specs, side files (vocabularies)
and last each PREFIX.manifest.json. Safe to run again. While an index is missing it writes nothing and
exits 1 listing the indexes to run again. Prints the records dropped under onError: skip by every
index (from their markers) and the first of their errors.

Options:
  --json                print the result as one JSON object (records, shards, files, skipped,
                        skippedErrors)`,
  options: { json: { type: 'boolean' } },
  load: async () => (await import('./scale.js')).finalizeFile,
};
