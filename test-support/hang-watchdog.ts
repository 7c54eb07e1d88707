// A watchdog for fuzz tests: a worker thread that notices when the test's own thread stays in one
// case too long. A timer in the test thread cannot see a synchronous endless loop (it never gets to
// run), so the worker prints the case to stderr and kills the process: the run fails loudly instead
// of hanging CI.
import { Worker } from 'node:worker_threads';

const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let label = '';
let started = 0;
parentPort.on('message', (message) => {
  if (message.kind === 'begin') {
    label = message.label;
    started = Date.now();
  } else {
    started = 0;
  }
});
setInterval(() => {
  if (started !== 0 && Date.now() - started > workerData.limitMs) {
    writeSync(2, '\\nHANG: the test thread has been busy for ' + (Date.now() - started) + ' ms in case ' + label + '\\n');
    process.kill(process.pid, 'SIGKILL');
  }
}, 200);
`;

/** The watchdog's handle: mark each case's start and end, stop it when done. */
export interface HangWatchdog {
  /** A case starts; `label` is what is printed if it never ends. */
  begin(label: string): void;
  /** The case ended (normally or not). */
  end(): void;
  /** Ends the worker. */
  stop(): Promise<void>;
}

/** Starts a watchdog that kills the process when a case runs longer than `limitMs` milliseconds. */
export function startHangWatchdog(limitMs: number): HangWatchdog {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { limitMs } });
  worker.unref();
  return {
    begin: (label) => worker.postMessage({ kind: 'begin', label }),
    end: () => worker.postMessage({ kind: 'end' }),
    stop: async () => {
      await worker.terminate();
    },
  };
}
