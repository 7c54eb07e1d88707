import type { ShardSummary, StageReport, TfpipeError } from '@tfpipe/core';

/**
 * One report for several streams that act as one (a chain of stages and its sink, or the branches
 * of a split): shards and skipped errors concatenated, skipped and bytes summed, `records` and
 * `currentShard` from the last stream that says, details merged (later win).
 */
export function mergeReports(stage: string, reports: readonly (StageReport | undefined)[]): StageReport {
  let skipped = 0;
  let bytes: number | undefined;
  let records: number | undefined;
  let currentShard: string | undefined;
  const skippedErrors: TfpipeError[] = [];
  const shards: ShardSummary[] = [];
  const details: Record<string, unknown> = {};
  for (const report of reports) {
    if (report === undefined) continue;
    skipped += report.skipped ?? 0;
    // Loops, not `push(...list)`: a spread passes each item as an argument (100k shards overflow the stack).
    for (const error of report.skippedErrors ?? []) skippedErrors.push(error);
    for (const shard of report.shards ?? []) shards.push(shard);
    if (report.bytes !== undefined) bytes = (bytes ?? 0) + report.bytes;
    if (report.records !== undefined) records = report.records;
    if (report.currentShard !== undefined) currentShard = report.currentShard;
    if (report.details !== undefined) Object.assign(details, report.details);
  }
  return {
    stage,
    skipped,
    skippedErrors,
    shards,
    details,
    ...(bytes === undefined ? {} : { bytes }),
    ...(records === undefined ? {} : { records }),
    ...(currentShard === undefined ? {} : { currentShard }),
  };
}
