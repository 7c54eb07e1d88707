import { hostname } from 'node:os';
import type { ScalePlan } from './plan-types.js';
import { processAlive, readLeases, readMarker } from './shard-marker.js';

/** Where each index of a plan stands. */
export interface PlanStatus {
  /** Committed (marker written, files in place). */
  readonly done: readonly number[];
  /** Not committed, with a live worker: on this host its process is alive; another host's is trusted. */
  readonly running: readonly number[];
  /** Not committed and nobody on it: run these. */
  readonly missing: readonly number[];
}

/** Reads every marker and lease of a plan: done, running or missing, per index. Writes nothing. */
export async function planStatus(plan: ScalePlan): Promise<PlanStatus> {
  const host = hostname();
  const leases = await readLeases(plan);
  const done: number[] = [];
  const running: number[] = [];
  const missing: number[] = [];
  for (const { index } of plan.shards) {
    if ((await readMarker(plan, index)) !== undefined) done.push(index);
    else if (
      leases.some((lease) => lease.index === index && (lease.host !== host || processAlive(lease.pid)))
    ) {
      running.push(index);
    } else missing.push(index);
  }
  return { done, running, missing };
}
