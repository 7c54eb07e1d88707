import { TfpipeError } from '@tfpipe/core';
import { runPlannedPipeline } from '@tfpipe/pipeline';
import type { FlagValues } from '../command.js';
import { booleanFlag } from '../flags.js';
import type { CliIo } from '../io.js';
import { writeLine } from '../io.js';
import { ttyProgress } from '../progress.js';
import { skippedLines } from './skipped-lines.js';

/** `tfpipe run PIPELINE --workers N`: the pipeline as a plan, worked by N processes, then finalized. */
export async function runWithWorkers(
  file: string,
  workers: number,
  values: FlagValues,
  io: CliIo,
): Promise<number> {
  for (const flag of ['dry-run', 'overwrite']) {
    if (booleanFlag(values, flag)) {
      throw new TfpipeError('INVALID_OPTION', `--${flag} cannot be combined with --workers`, {
        stage: 'cli',
        fatal: true,
      });
    }
  }
  const quiet = booleanFlag(values, 'quiet');
  const json = booleanFlag(values, 'json');
  const progress = ttyProgress(io.stderr, quiet || json);
  let result;
  try {
    result = await runPlannedPipeline(file, {
      cwd: io.cwd,
      workers,
      onProgress: ({ records, elapsedMs }) =>
        progress.onProgress({
          records,
          recordsRead: records,
          bytes: 0,
          bytesRead: 0,
          currentShard: undefined,
          recordsPerSecond: elapsedMs > 0 ? (records * 1000) / elapsedMs : 0,
          elapsedMs,
        }),
    });
  } finally {
    progress.done();
  }
  if (json) {
    const { records, shards, files, planFile, skipped, skippedErrors } = result;
    await writeLine(
      io.stdout,
      JSON.stringify({
        records,
        shards,
        files,
        plan: planFile,
        directory: result.plan.directory,
        skipped,
        skippedErrors,
      }),
    );
  } else if (!quiet) {
    await writeLine(
      io.stdout,
      `wrote ${result.records} records in ${result.shards.length} shard(s) with ${workers} worker(s) into ${result.plan.directory}`,
    );
    await writeLine(io.stdout, `also wrote: ${result.files.join(', ')}`);
    for (const line of skippedLines(result.skipped, result.skippedErrors)) await writeLine(io.stdout, line);
  }
  return 0;
}
