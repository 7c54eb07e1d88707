import { createHash } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { readError, writeError } from '@tfpipe/node-utils';
import { PLAN_FORMAT, PLAN_VERSION, type PlanInput, type ScalePlan } from './plan-types.js';

const STAGE = 'plan';

/** The checksum of a plan: SHA-256 of its JSON without the `checksum` key. */
export function planChecksum(plan: Omit<ScalePlan, 'checksum'> & { checksum?: string }): string {
  const { checksum: _ignored, ...rest } = plan;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

function invalid(file: string, message: string, reason?: string): TfpipeError {
  return new TfpipeError('PLAN_INVALID', message, {
    stage: STAGE,
    fatal: true,
    position: { file },
    ...(reason === undefined ? {} : { reason }),
  });
}

/** Writes a plan to `file` under a temporary name, then renames it: never a half-written plan. */
export async function writePlanFile(plan: ScalePlan, file: string): Promise<void> {
  const temporary = join(dirname(file), `.${Date.now()}-${process.pid}.plan.tmp`);
  try {
    await writeFile(temporary, `${JSON.stringify(plan, null, 2)}\n`, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw writeError(error, file, STAGE, 'writing the plan');
  }
}

/**
 * Reads a plan file and checks it is one this tfpipe wrote, unedited.
 *
 * @throws TfpipeError `PLAN_INVALID` (not a plan, another `planVersion`, edited since planning),
 *   `INPUT_NOT_FOUND` / `IO` (the file).
 */
export async function readPlanFile(file: string): Promise<ScalePlan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw readError(error, file, STAGE, 'reading the plan');
  }
  let plan: Partial<ScalePlan>;
  try {
    plan = JSON.parse(text) as Partial<ScalePlan>;
  } catch {
    throw invalid(file, 'the plan is not JSON', 'write it again with tfpipe plan');
  }
  if (typeof plan !== 'object' || plan === null || plan.format !== PLAN_FORMAT) {
    throw invalid(file, 'not a tfpipe plan (no "format": "tfpipe-plan")');
  }
  if (plan.planVersion !== PLAN_VERSION) {
    throw invalid(
      file,
      `the plan has planVersion ${JSON.stringify(plan.planVersion)}, this tfpipe reads ${PLAN_VERSION}`,
      'plan again with this tfpipe (tfpipe plan)',
    );
  }
  if (typeof plan.checksum !== 'string' || planChecksum(plan as ScalePlan) !== plan.checksum) {
    throw invalid(
      file,
      'the plan was changed since it was written (its checksum does not match)',
      'plan again instead of editing a plan: every worker must read the same one',
    );
  }
  return plan as ScalePlan;
}

/**
 * Checks that the inputs are as planned (same size and mtime): a worker reading a changed file would
 * write shards that disagree with the others.
 *
 * @throws TfpipeError `INPUT_CHANGED` or `INPUT_NOT_FOUND` naming the file.
 */
export async function checkPlanInputs(inputs: readonly PlanInput[]): Promise<void> {
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input.path);
    } catch (error) {
      throw readError(error, input.path, STAGE, 'checking a planned input');
    }
    if (info.size !== input.size || info.mtimeMs !== input.mtimeMs) {
      const what = info.size !== input.size ? `size ${input.size} → ${info.size}` : 'modification time';
      throw new TfpipeError('INPUT_CHANGED', `an input changed since planning (${what})`, {
        stage: STAGE,
        fatal: true,
        position: { file: input.path },
        reason: 'plan again (tfpipe plan), then run every index and finalize',
      });
    }
  }
}
