import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TFRECORD_CORPUS } from '../../../../test-support/corpus.js';

/** The built executable, run as a user runs it. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** The vendored third-party TFRecord corpus (test-support/corpus, see its NOTICE.md). */
export const CORPUS = TFRECORD_CORPUS;

/** Runs `tfpipe ...args` and resolves with its exit code and output (never rejects on a non-zero exit). */
export function tfpipe(
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: options.cwd, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
