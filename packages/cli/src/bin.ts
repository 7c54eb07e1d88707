#!/usr/bin/env node
/**
 * @module @tfpipe/cli/bin
 * The `tfpipe` executable: parses argv, runs the command, exits with its code.
 */
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
});
process.exitCode = code;
