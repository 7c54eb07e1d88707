/** A plan as the queue sees it: its file, an id that changes when the plan does, and its work indexes. */
export interface QueuedPlan {
  /** The plan file's absolute path, on storage every worker shares. */
  readonly file: string;
  /** The plan's identity (its checksum): job ids derive from it, so enqueuing twice adds nothing. */
  readonly id: string;
  /** Work indexes `0 … shardCount - 1`. */
  readonly shardCount: number;
}

/** What a job carries. */
export type PlanJobData =
  | { readonly kind: 'shard'; readonly plan: string; readonly planId: string; readonly index: number }
  | { readonly kind: 'finalize'; readonly plan: string; readonly planId: string };

/** The BullMQ job id of work index `index` of a plan (BullMQ ids may not contain ':'). */
export function shardJobId(planId: string, index: number): string {
  return `${planId.slice(0, 32)}-shard-${index}`;
}

/** The BullMQ job id of a plan's finalize job, the parent of its shard jobs. */
export function finalizeJobId(planId: string): string {
  return `${planId.slice(0, 32)}-finalize`;
}
