import { writeFileSync } from 'node:fs';

/** The points where a test may have a worker killed (`TFPIPE_TEST_CRASH`). */
export type CrashPoint = 'mid-write' | 'before-rename' | 'before-marker';

/**
 * Kills this process with SIGKILL at `point` when the environment variable `TFPIPE_TEST_CRASH` names
 * it: only tests set it, to prove that a worker dying there loses and duplicates nothing. With
 * `TFPIPE_TEST_CRASH_ONCE` naming a file, only the first process to create that file dies.
 */
export function crashPoint(point: CrashPoint): void {
  if (process.env.TFPIPE_TEST_CRASH !== point) return;
  const once = process.env.TFPIPE_TEST_CRASH_ONCE;
  if (once !== undefined) {
    try {
      writeFileSync(once, '', { flag: 'wx' });
    } catch {
      return;
    }
  }
  process.kill(process.pid, 'SIGKILL');
}
