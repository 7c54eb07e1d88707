import type { RunSummary } from '@tfpipe/core';
import { runPipeline, type LoadedPipeline, type PipelineResult } from '@tfpipe/pipeline/run';
import type { FlagValues } from '../command.js';
import { booleanFlag } from '../flags.js';
import type { CliIo } from '../io.js';
import { writeLine } from '../io.js';
import { formatBytes, formatCount } from '../preview.js';
import { skippedLines } from './skipped-lines.js';
import { ttyProgress } from '../progress.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function summaryJson(result: PipelineResult): object {
  const { summary } = result;
  return {
    recordsRead: summary.recordsRead,
    recordsWritten: summary.recordsWritten,
    skipped: summary.skipped,
    bytes: summary.bytes,
    elapsedMs: Math.round(summary.elapsedMs),
    directory: result.directory,
    splits: Object.fromEntries(
      result.splits.map((split) => [
        split.name,
        { records: split.shards.reduce((sum, shard) => sum + shard.records, 0), shards: split.shards },
      ]),
    ),
    shards: summary.shards,
    files: result.files,
    removed: result.removed,
    foreignTemporaries: result.foreignTemporaries,
    skippedErrors: summary.skippedErrors.map((error) => error.toJSON()),
  };
}

/** One summary line per fact, for the end of a run. */
export function summaryLines(summary: RunSummary, result?: PipelineResult): string[] {
  const seconds = summary.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(summary.recordsWritten / seconds) : summary.recordsWritten;
  const lines = [
    `wrote ${summary.recordsWritten} records in ${summary.shards.length} file(s), ${formatBytes(summary.bytes)}, ${seconds.toFixed(2)} s (${formatCount(rate)} records/s)`,
  ];
  for (const shard of summary.shards)
    lines.push(`  ${shard.path}  ${shard.records} records  ${formatBytes(shard.bytes)}`);
  if (result !== undefined && result.splits.length > 1) {
    const parts = result.splits.map(
      (split) => `${split.name} ${split.shards.reduce((sum, shard) => sum + shard.records, 0)}`,
    );
    lines.push(`splits: ${parts.join(', ')}`);
  }
  if (result !== undefined && result.files.length > 0) lines.push(`also wrote: ${result.files.join(', ')}`);
  if (result !== undefined && result.removed.length > 0)
    lines.push(`removed ${result.removed.length} old file(s): ${result.removed.join(', ')}`);
  if (result !== undefined && result.foreignTemporaries.length > 0) {
    lines.push(
      `left ${result.foreignTemporaries.length} temporary file(s) of another host or an older tfpipe alone (delete them once no run writes there): ${result.foreignTemporaries.slice(0, 5).join(', ')}`,
    );
  }
  lines.push(...skippedLines(summary.skipped, summary.skippedErrors));
  return lines;
}

/** Runs a loaded pipeline with progress on a TTY, Ctrl-C handling and the summary (text or JSON). */
export async function executePipeline(
  loaded: LoadedPipeline,
  values: FlagValues,
  io: CliIo,
): Promise<number> {
  const quiet = booleanFlag(values, 'quiet');
  const json = booleanFlag(values, 'json');
  const progress = ttyProgress(io.stderr, quiet || json);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  // A terminated run (kill, a job scheduler, a closed terminal) cleans up as Ctrl-C does.
  for (const signal of SIGNALS) process.once(signal, onSignal);
  let result: PipelineResult;
  try {
    result = await runPipeline(loaded, {
      overwrite: booleanFlag(values, 'overwrite'),
      signal: controller.signal,
      onProgress: progress.onProgress,
    });
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    progress.done();
  }
  if (json) await writeLine(io.stdout, JSON.stringify(summaryJson(result)));
  else if (!quiet) for (const line of summaryLines(result.summary, result)) await writeLine(io.stdout, line);
  return 0;
}
