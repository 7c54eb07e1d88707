import type { Command } from '../command.js';

/** `tfpipe plan PIPELINE --shards N --out PLAN`: a plan for many workers. */
export const planCommand: Command = {
  name: 'plan',
  summary: 'plan a pipeline for many workers: input units dealt to N shard indexes',
  usage: `Usage: tfpipe plan PIPELINE --shards N --out PLAN [options]

Checks a pipeline file, lists its inputs (size and modification time recorded), cuts them into units
(CSV byte ranges at record starts, Parquet row groups, JSON Lines files, runs of images) and deals them to N work indexes.
Each index then writes its own shard of every split with 'tfpipe work PLAN --index I', anywhere the output
directory is shared; 'tfpipe finalize PLAN' writes the manifest once all are done.

Options:
  --shards N            work indexes, each writing one output shard per split (default: the sink's shards)
  --out PLAN            the plan file to write (JSON)
  --unit-bytes SIZE     largest CSV byte range per unit (default 64M)
  --unit-images N       most images per unit of an image source (default 1024)`,
  options: {
    shards: { type: 'string' },
    out: { type: 'string' },
    'unit-bytes': { type: 'string' },
    'unit-images': { type: 'string' },
  },
  load: async () => (await import('./scale.js')).planFile,
};
