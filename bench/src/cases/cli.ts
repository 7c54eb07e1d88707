import { TFPIPE_BIN, processSide } from '../process-side.js';
import type { BenchCase } from '../harness.js';

/**
^ * Case h: `tfpipe --help`, the CLI's start-up, against a bare `node -e ''`. Issue 22 asks for ≤ 0.1 s,
 * that is ≥ 10 runs/s; the ratio shows what tfpipe adds to Node's own start.
 */
export const cliCase: BenchCase = {
  name: 'cli',
  title: 'h. tfpipe --help (start-up), runs/s: 10/s is 0.1 s',
  unit: 'runs/s',
  prepare: () => Promise.resolve([]),
  sides: {
    help: processSide({
      label: 'tfpipe --help (a node process)',
      items: 1,
      args: () => [TFPIPE_BIN, '--help'],
    }),
    node: processSide({ label: "node -e '' (Node's start alone)", items: 1, args: () => ['-e', ''] }),
  },
  comparisons: [{ ours: 'help', baseline: 'node' }],
};
