/**
 * @module @tfpipe/cli
 * The `tfpipe` command line as a function, for tests and for tools that embed it.
 */
export { main } from './main.js';
export type { CliIo } from './io.js';
export { jsonLinesSource } from './jsonl-source.js';
export type { JsonLinesSourceOptions } from './jsonl-source.js';
