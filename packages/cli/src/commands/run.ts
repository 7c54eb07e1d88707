import type { FlagValues } from '../command.js';
import { loadPipelineFile } from '@tfpipe/pipeline/run';
import { integerFlag, booleanFlag, requirePositionals } from '../flags.js';
import type { CliIo } from '../io.js';
import { writeLine } from '../io.js';
import { executePipeline } from './execute-pipeline.js';

/** `tfpipe run PIPELINE`: runs a pipeline file. */
export async function runPipelineFile(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const [file] = requirePositionals(positionals, 'PIPELINE file') as [string];
  const workers = integerFlag(values, 'workers');
  if (workers !== undefined) {
    const { runWithWorkers } = await import('./run-workers.js');
    return runWithWorkers(file, workers, values, io);
  }
  const loaded = await loadPipelineFile(file, io.cwd);
  if (booleanFlag(values, 'dry-run')) {
    const { dryRun } = await import('@tfpipe/pipeline');
    const { lines } = await dryRun(loaded, {
      cwd: io.cwd,
      sample: integerFlag(values, 'sample') ?? 100,
      show: integerFlag(values, 'show', 0) ?? 3,
    });
    for (const line of lines) await writeLine(io.stdout, line);
    return 0;
  }
  return executePipeline(loaded, values, io);
}
