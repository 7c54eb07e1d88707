/**
 * @module @tfpipe/source-template
 * A copy-me source plugin for tfpipe: JSON Lines objects as rows. Copy the package, rename
 * `jsonRowsSource`, replace the reading part, keep the conformance test passing.
 */
export { jsonRowsSource } from './json-rows-source.js';
export type { JsonRow, JsonRowsSourceOptions } from './json-rows-source.js';
