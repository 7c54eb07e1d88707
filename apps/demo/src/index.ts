/**
 * @module @tfpipe/demo
 * `pnpm demo`: three pipelines composed in code (CSV, image folders, Parquet → TFRecord), their
 * outputs read back and verified. Sample data is generated into `demo-output/` at the repository
 * root on the first run (or into the directory given as the first argument).
 */
import { TfpipeError } from '@tfpipe/core';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDemo } from './run-demo.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const directory = path.resolve(process.argv[2] ?? path.join(repositoryRoot, 'demo-output'));

try {
  const result = await runDemo({ directory });
  process.exitCode = result.failures.length === 0 ? 0 : 1;
} catch (error) {
  console.error(TfpipeError.is(error) ? `tfpipe demo failed: ${error.code}: ${error.message}` : error);
  process.exitCode = 1;
}
