import { parseArgs } from 'node:util';
import type { Command } from './command.js';
import type { CliIo } from './io.js';
import { OUTPUT_CLOSED_EXIT, OutputClosedError, writeLine } from './io.js';
import { commands } from './commands/index.js';
import { printableName } from './printable.js';

const HELP = `tfpipe: build, inspect and verify TFRecord datasets of tf.train.Example

Usage: tfpipe <command> [options]

Commands:
${commands.map((command) => `  ${command.name.padEnd(9)} ${command.summary}`).join('\n')}

Run 'tfpipe <command> --help' for a command's options.`;

/**
 * Runs the tfpipe CLI with `argv` (without `node` and the script) and resolves to the exit code:
 * 0 on success, 1 on a failure of the data (a corrupt record, a bad row), 2 on a usage error (a bad
 * flag, an invalid pipeline file, an unknown plugin, split ratios that do not sum to 1).
 * Every failure prints exactly one line to stderr, starting `tfpipe: `. When the reader of stdout goes
 * away (`tfpipe inspect --json FILE | head -1`) the command stops quietly with {@link OUTPUT_CLOSED_EXIT}.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await writeLine(io.stdout, HELP);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    await writeLine(io.stdout, await version());
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    await writeLine(io.stderr, `tfpipe: unknown command "${printableName(name)}" (try tfpipe --help)`);
    return 2;
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(command, rest);
  } catch (error) {
    await writeLine(
      io.stderr,
      `tfpipe ${command.name}: ${(error as Error).message} (try tfpipe ${command.name} --help)`,
    );
    return 2;
  }
  if (parsed.values.help === true) {
    await writeLine(io.stdout, command.usage);
    return 0;
  }
  try {
    const run = await command.load();
    return await run(parsed.values, parsed.positionals, io);
  } catch (error) {
    if (OutputClosedError.is(error)) return OUTPUT_CLOSED_EXIT;
    // Loaded only on failure: phrasing the error needs core, which `--help` should not load.
    const { failureOf } = await import('./cli-error.js');
    const failure = failureOf(error, Object.keys(command.options));
    // With stderr closed too there is nobody left to tell.
    await writeLine(io.stderr, `tfpipe ${command.name}: ${printableName(failure.message)}`).catch(
      () => undefined,
    );
    return failure.exitCode;
  }
}

function parse(command: Command, argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: { ...command.options, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
}

async function version(): Promise<string> {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const manifest = require('../package.json') as { version: string };
  return manifest.version;
}
