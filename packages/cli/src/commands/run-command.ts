import type { Command } from '../command.js';
import { RUN_FLAGS } from './shared-flags.js';

/** `tfpipe run PIPELINE`: runs a pipeline file. */
export const runCommand: Command = {
  name: 'run',
  summary: 'run a pipeline file (JSON or YAML): source, transforms, splits, shuffle, sink',
  usage: `Usage: tfpipe run PIPELINE [options]

Runs a pipeline file (.json, .yaml or .yml): a source plugin and its options, an optional feature spec,
transforms (filter, take, sample), a split into train/validation/test shard sets, a shuffle and a sink.
Paths in the file are relative to the file. The file is checked completely (JSON syntax, every key,
every plugin's options, filter expressions, split ratios) before anything is read or written.

A pipeline file names code that runs: each plugin it names (any package in a node_modules folder at or
above the file's directory) is imported, and its code runs, while the file is checked, also with
--dry-run. Run only pipeline files you would run as a script.

Options:
  --dry-run             check the file, read a sample, print the plan, the reader spec inferred from the
                        sample and the first Examples; write nothing
  --sample N            rows the dry run reads (default 100)
  --show N              Examples the dry run prints (default 3)
  --overwrite           replace the previous output of each prefix written (its shard set, its manifest)
                        once the new output is complete; other files and prefixes are never touched.
                        Without it existing output is refused before anything is written
  --workers N           run it as a plan (tfpipe plan) on N worker processes, then finalize: the same
                        bytes for any N; shards default to the sink's shards, else N
  --json                print the final summary as one JSON object (for scripts)
  --quiet               no progress line, no summary`,
  options: {
    'dry-run': { type: 'boolean' },
    sample: { type: 'string' },
    show: { type: 'string' },
    workers: { type: 'string' },
    ...RUN_FLAGS,
  },
  load: async () => (await import('./run.js')).runPipelineFile,
};
