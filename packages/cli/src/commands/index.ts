import type { Command } from '../command.js';
import { convertCommand } from './convert.js';
import { countCommand } from './count.js';
import { inspectCommand } from './inspect.js';
import { runCommand } from './run.js';
import { schemaCommand } from './schema.js';
import { verifyCommand } from './verify.js';
import { viewCommand } from './view.js';

/** Every sub-command, in the order `tfpipe --help` lists them. */
export const commands: readonly Command[] = [
  convertCommand,
  runCommand,
  inspectCommand,
  countCommand,
  verifyCommand,
  schemaCommand,
  viewCommand,
];
