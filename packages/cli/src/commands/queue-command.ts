import type { Command } from '../command.js';

/** `tfpipe queue PLAN --redis URL` and `tfpipe queue resume PLAN --redis URL`. */
export const queueCommand: Command = {
  name: 'queue',
  summary: 'enqueue a plan on Redis (BullMQ) for `tfpipe worker`s, or resume its failed shards',
  usage: `Usage: tfpipe queue PLAN --redis URL [--queue NAME] [--attempts N]
       tfpipe queue resume PLAN --redis URL [--queue NAME]
       tfpipe queue status PLAN --redis URL [--queue NAME] [--json]

Enqueues one job per shard index of PLAN under a parent job that runs \`tfpipe finalize\` once every
shard has completed. Job ids come from the plan's checksum, so enqueuing twice adds nothing.
\`resume\` moves shards that failed for good (after --attempts runs, or stalled past a worker's
--max-stalled) back to waiting, and enqueues the plan again if Redis lost its jobs.

Options:
  --redis URL           redis://[user:password@]host[:port][/db] (rediss:// for TLS)
  --queue NAME          the BullMQ queue (default tfpipe)
  --attempts N          runs of a shard job before it fails for good (default 3)
  --json                status as one JSON object`,
  options: {
    redis: { type: 'string' },
    queue: { type: 'string' },
    attempts: { type: 'string' },
    json: { type: 'boolean' },
  },
  load: async () => (await import('./queue.js')).queuePlan,
};
