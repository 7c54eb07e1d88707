import { Worker } from 'node:worker_threads';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import { cachedParseWorkers } from '../workers/parse-workers.js';
import type { ParseWorkerLauncher, ParseWorkers } from '../workers/parse-workers.js';
import { nodeSpanCrcs } from './run-crcs.js';

/**
 * The built worker module: beside this module in `dist`; from the TypeScript sources (under the test
 * runner) the package's built copy, which the package's tests build first.
 */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../../dist/parse-worker.js', here)
    : new URL('./parse-worker.js', here);
}

/** Parse workers on node:worker_threads. */
const THREADS: ParseWorkerLauncher = {
  start: (spec) => new Worker(workerUrl(), { workerData: { spec }, name: 'tfpipe parse' }),
  exitMessage: (code) => `the parse worker exited (code ${code})`,
  crcCheck: nodeSpanCrcs(),
};

const workersBySpec = new WeakMap<object, Map<number, ParseWorkers<ExampleParseSpec>>>();

/** The parse worker threads of `spec` and `count` (kept while the spec object is, see `cachedParseWorkers`). */
export function parseThreadsFor<Spec extends ExampleParseSpec>(
  spec: Spec,
  count: number,
): ParseWorkers<Spec> {
  return cachedParseWorkers(workersBySpec, spec, count, THREADS);
}
