import type { Command } from '../command.js';

/** `tfpipe status PLAN`: done, running and missing indexes. */
export const statusCommand: Command = {
  name: 'status',
  summary: 'show which indexes of a plan are done, running or missing',
  usage: `Usage: tfpipe status PLAN [--json]

Prints the indexes of a plan that are committed (done), being worked (running: a live process on this
host, or any worker on another host) and missing (to run). Writes nothing.

Options:
  --json                one JSON object { done, running, missing }`,
  options: { json: { type: 'boolean' } },
  load: async () => (await import('./scale.js')).statusFile,
};
