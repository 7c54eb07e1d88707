import type { Command } from '../command.js';

/** `tfpipe work PLAN --index I`: one shard index of a plan. */
export const workCommand: Command = {
  name: 'work',
  summary: "write one shard index of a plan (the index from --index or the scheduler's variable)",
  usage: `Usage: tfpipe work PLAN [--index I]

Writes shard index I of a plan under temporary names, renames them, then writes the index's commit
marker. An index already committed is left as it is; two runs of one index write the same bytes.
Without --index the index is read from the first of JOB_COMPLETION_INDEX (Kubernetes Indexed Job),
SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX, CLOUD_RUN_TASK_INDEX, BATCH_TASK_INDEX (GCP Batch).

Options:
  --index I             the work index, 0 to shards - 1
  --quiet               print nothing on success`,
  options: { index: { type: 'string' }, quiet: { type: 'boolean' } },
  load: async () => (await import('./scale.js')).workIndex,
};
