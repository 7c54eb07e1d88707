import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './io.js';

/** One `tfpipe` sub-command. */
export interface Command {
  /** The word after `tfpipe`. */
  readonly name: string;
  /** One line for `tfpipe --help`. */
  readonly summary: string;
  /** The full help text of the command. */
  readonly usage: string;
  /** Its options, in `node:util` parseArgs form. */
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Runs it; resolves to the exit code. Throws TfpipeError for failures. */
  run(
    values: Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>,
    positionals: readonly string[],
    io: CliIo,
  ): Promise<number>;
}
