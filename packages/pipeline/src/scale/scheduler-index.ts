import { TfpipeError } from '@tfpipe/core';

/**
 * The environment variables batch schedulers give each task of an array, in the order they are
 * looked up: Kubernetes Indexed Jobs, Slurm arrays, AWS Batch array jobs, Cloud Run jobs, GCP Batch.
 */
export const SCHEDULER_INDEX_VARIABLES: readonly string[] = [
  'JOB_COMPLETION_INDEX',
  'SLURM_ARRAY_TASK_ID',
  'AWS_BATCH_JOB_ARRAY_INDEX',
  'CLOUD_RUN_TASK_INDEX',
  'BATCH_TASK_INDEX',
];

/**
 * The work index a scheduler gave this process, from the first of {@link SCHEDULER_INDEX_VARIABLES}
 * that is set.
 *
 * @throws TfpipeError `PLAN_INDEX` when none is set, or one is not a whole number.
 */
export function schedulerIndex(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): number {
  for (const name of SCHEDULER_INDEX_VARIABLES) {
    const value = environment[name];
    if (value === undefined || value === '') continue;
    if (!/^\d+$/.test(value)) {
      throw new TfpipeError('PLAN_INDEX', `${name} is ${JSON.stringify(value)}, not a whole number`, {
        stage: 'work',
        fatal: true,
        position: { field: name },
      });
    }
    return Number(value);
  }
  throw new TfpipeError('PLAN_INDEX', 'no work index given and no scheduler variable set', {
    stage: 'work',
    fatal: true,
    position: { field: 'index' },
    reason: `pass the index, or run under a scheduler that sets one of ${SCHEDULER_INDEX_VARIABLES.join(', ')}`,
  });
}
