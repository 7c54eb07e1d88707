import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './io.js';

/** The parsed flags of one command line, by flag name without `--`. */
export type FlagValues = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;

/** Runs a command with its parsed flags and positionals; resolves to the exit code. Throws TfpipeError for failures. */
export type CommandRun = (values: FlagValues, positionals: readonly string[], io: CliIo) => Promise<number>;

/**
 * One `tfpipe` sub-command. Its description (name, help, flags) is all `tfpipe --help` and argument
 * parsing need, so it imports nothing heavy; the code that runs it, with the plugins, sharp or hyparquet
 * it needs, is imported by {@link Command.load} only when the command runs.
 */
export interface Command {
  /** The word after `tfpipe`. */
  readonly name: string;
  /** One line for `tfpipe --help`. */
  readonly summary: string;
  /** The full help text of the command. */
  readonly usage: string;
  /** Its options, in `node:util` parseArgs form. */
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Imports the command's code and resolves to its run function. */
  load(): Promise<CommandRun>;
}
