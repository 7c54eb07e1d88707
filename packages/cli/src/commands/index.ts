import type { Command } from '../command.js';
import { convertCommand } from './convert-command.js';
import { countCommand } from './count-command.js';
import { exportCommand } from './export-command.js';
import { headCommand } from './head-command.js';
import { indexCommand } from './index-command.js';
import { finalizeCommand } from './finalize-command.js';
import { inspectCommand } from './inspect-command.js';
import { planCommand } from './plan-command.js';
import { queueCommand } from './queue-command.js';
import { runCommand } from './run-command.js';
import { schemaCommand } from './schema-command.js';
import { statusCommand } from './status-command.js';
import { verifyCommand } from './verify-command.js';
import { viewCommand } from './view-command.js';
import { workCommand } from './work-command.js';
import { workerCommand } from './worker-command.js';

/** Every sub-command, in the order `tfpipe --help` lists them: descriptions only, each loads its code when it runs. */
export const commands: readonly Command[] = [
  convertCommand,
  runCommand,
  planCommand,
  workCommand,
  finalizeCommand,
  statusCommand,
  queueCommand,
  workerCommand,
  inspectCommand,
  headCommand,
  exportCommand,
  countCommand,
  verifyCommand,
  indexCommand,
  schemaCommand,
  viewCommand,
];
