#!/usr/bin/env node
/**
 * @module @tfpipe/cli/bin
 * The `tfpipe` executable: parses argv, runs the command, exits with its code.
 */
import * as nodeModule from 'node:module';

// Node ≥ 22.1 keeps the compiled code of the modules it loads on disk, so later runs skip compiling
// them (as npm does); older Nodes have no such switch. Before the CLI's own modules load.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import('./main.js');

// A closed stdout or stderr (`| head -1`) makes the next write fail with EPIPE, emitted as an 'error'
// event; unheard, it kills the process with a stack trace. writeLine sees the broken stream and stops
// the command, so the event itself needs no action.
const ignore = (): void => undefined;
process.stdout.on('error', ignore);
process.stderr.on('error', ignore);

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
});
process.exitCode = code;
