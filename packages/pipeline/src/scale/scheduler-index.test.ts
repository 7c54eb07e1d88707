import { describe, expect, it } from 'vitest';
import { schedulerIndex } from './scheduler-index.js';

describe('schedulerIndex', () => {
  it('reads the first scheduler variable set, in the documented order', () => {
    expect(schedulerIndex({ BATCH_TASK_INDEX: '4' })).toBe(4);
    expect(schedulerIndex({ SLURM_ARRAY_TASK_ID: '2', AWS_BATCH_JOB_ARRAY_INDEX: '3' })).toBe(2);
    expect(schedulerIndex({ JOB_COMPLETION_INDEX: '0', CLOUD_RUN_TASK_INDEX: '9' })).toBe(0);
  });

  it('refuses no variable, and a variable that is not a whole number, naming it', () => {
    expect(() => schedulerIndex({})).toThrow(expect.objectContaining({ code: 'PLAN_INDEX' }));
    expect(() => schedulerIndex({ SLURM_ARRAY_TASK_ID: '1-3' })).toThrow(
      expect.objectContaining({
        code: 'PLAN_INDEX',
        message: expect.stringContaining('SLURM_ARRAY_TASK_ID'),
      }),
    );
  });
});
