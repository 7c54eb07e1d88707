/**
 * @module @tfpipe/cli
 * The `tfpipe` command line as a function, for tests and for tools that embed it:
 * `await main(['convert', 'a.csv', '--out', 'out'], io)` resolves with the exit code.
 */
export { main } from './main.js';
export type { CliIo } from './io.js';
