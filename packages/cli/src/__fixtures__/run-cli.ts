import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built executable, run as a user runs it. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** Repo-relative third-party corpus (CI has ../shared beside the checkout). */
export const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/tfrecord/', import.meta.url));

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
