import type { Command } from '../command.js';

/** `tfpipe worker --redis URL`: runs queued shard and finalize jobs. */
export const workerCommand: Command = {
  name: 'worker',
  summary: 'run the shard jobs of queued plans (BullMQ on Redis) until stopped',
  usage: `Usage: tfpipe worker --redis URL [--queue NAME] [--concurrency N] [--lock-ms MS]
                     [--max-stalled N] [--unreachable-ms MS] [--until-done PLAN]

Takes jobs from the queue and runs each in a child process (\`tfpipe work PLAN --index I\`, or
\`tfpipe finalize PLAN\` for a plan's parent job), so that this process keeps renewing the job's lock.
A worker that dies loses its lock; after --lock-ms another worker runs the job again, which is safe:
two runs of one index write the same bytes. Stops on SIGINT / SIGTERM after its running jobs.

Options:
  --redis URL           redis://[user:password@]host[:port][/db] (rediss:// for TLS)
  --queue NAME          the BullMQ queue (default tfpipe)
  --concurrency N       jobs at once (default 1)
  --lock-ms MS          how long a job's lock lasts unless renewed (default 30000)
  --max-stalled N       stalls (lost locks) before a job fails for good (default 3)
  --unreachable-ms MS   give up (exit 1, QUEUE_UNREACHABLE) once Redis has not answered, or refused
                        the credentials, for this long (default 60000)
  --until-done PLAN     exit 0 once PLAN has been finalized`,
  options: {
    redis: { type: 'string' },
    queue: { type: 'string' },
    concurrency: { type: 'string' },
    'lock-ms': { type: 'string' },
    'max-stalled': { type: 'string' },
    'unreachable-ms': { type: 'string' },
    'until-done': { type: 'string' },
  },
  load: async () => (await import('./queue.js')).runWorker,
};
