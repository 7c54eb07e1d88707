// Test helper: how a child process ended, with what it wrote to stderr.
import type { ChildProcess } from 'node:child_process';

/** The exit code or signal of `child` and its stderr (when piped). */
export function childExit(
  child: ChildProcess,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
}
